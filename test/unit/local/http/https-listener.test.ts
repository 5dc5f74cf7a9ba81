import { readFileSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { Agent, type AgentOptions, request } from "node:https";
import { connect as connectTcp, type Socket } from "node:net";
import { connect, type TLSSocket } from "node:tls";
import { Hono } from "hono";
import { describe, expect, it, onTestFinished } from "vitest";
import type { HttpRefusalReason } from "../../../../core/monitoring/http-refused-metric.ts";
import { type HttpListener, startHttpListener } from "../../../../local/http/http-listener.ts";
import type { ListenerTls } from "../../../../local/http/listener-certificate.ts";
import { until } from "../../../helpers/eventually.ts";
import {
  type ListenerCertificateFiles,
  TEST_PASSPHRASE,
  tlsSettings,
  writeListenerCertificates,
} from "../../../helpers/listener-certificates.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";

const PATH = "Service.restServer.tls";

function app(): Hono {
  const hono = new Hono();
  hono.get("/", (c) => c.text("ok"));
  return hono;
}

interface Started {
  readonly listener: HttpListener;
  readonly logger: RecordingLogger;
  readonly refused: HttpRefusalReason[];
}

async function startTls(tls: ListenerTls): Promise<Started> {
  const logger = recordingLogger();
  const refused: HttpRefusalReason[] = [];
  const listener = await startHttpListener({
    name: "REST API",
    app: app(),
    host: "127.0.0.1",
    port: 0,
    logger,
    tls,
    countRefused: (reason) => refused.push(reason),
  });
  onTestFinished(async () => {
    listener.closeConnections();
    await listener.stop();
  });
  return { listener, logger, refused };
}

const pemTls = (dir: string, files: ListenerCertificateFiles, checkIntervalMs?: number): ListenerTls => ({
  named: { path: PATH, settings: tlsSettings({ cert: files.certPath, key: files.keyPath }) },
  cwd: dir,
  checkIntervalMs,
});

interface Answer {
  readonly status: number;
  readonly body: string;
  /** CN of the certificate the server presented. */
  readonly servedBy: string;
  /** The client's port: the same port is the same connection. */
  readonly localPort: number;
}

function getOver(url: string, options: AgentOptions | Agent): Promise<Answer> {
  const agent = options instanceof Agent ? options : new Agent(options);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { agent }, (response) => {
      const socket = response.socket as TLSSocket;
      const servedBy = String(socket.getPeerCertificate().subject?.CN);
      const localPort = socket.localPort ?? 0;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.once("end", () => resolve({ status: response.statusCode ?? 0, body, servedBy, localPort }));
    });
    req.once("error", reject);
    req.end();
  });
}

describe("startHttpListener with tls", () => {
  it("serves HTTPS to Node's client with PEM files and with a passphrase-protected PFX, and says https:// in its URL", async () => {
    const dir = scratchDirectory("steward-https-");
    const files = await writeListenerCertificates(dir);
    const pem = await startTls(pemTls(dir, files));
    const pfx = await startTls({
      named: { path: PATH, settings: tlsSettings({ pfx: files.pfxPath, passphrase: TEST_PASSPHRASE }) },
      cwd: dir,
    });

    for (const { listener, logger } of [pem, pfx]) {
      expect(listener.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await getOver(listener.url, { ca: files.ca })).toMatchObject({ status: 200, body: "ok" });
      expect(logger.at("info").map((entry) => [entry.message, entry.fields])).toContainEqual([
        "REST API listening",
        { url: listener.url },
      ]);
      expect(logger.at("info")).toContainEqual(
        expect.objectContaining({
          message: "REST API serves HTTPS",
          fields: { subject: "CN=127.0.0.1", validUntil: expect.any(String) },
        }),
      );
    }
  });

  it("refuses TLS 1.1 and plain HTTP, counting and logging each with what the client must change", async () => {
    const dir = scratchDirectory("steward-https-");
    const files = await writeListenerCertificates(dir);
    const { listener, logger, refused } = await startTls(pemTls(dir, files));
    const { port } = new URL(listener.url);

    const old = await new Promise<string>((resolve) => {
      const socket = connect({
        host: "127.0.0.1",
        port: Number(port),
        ca: files.ca,
        minVersion: "TLSv1",
        maxVersion: "TLSv1.1",
        ciphers: "DEFAULT@SECLEVEL=0",
      });
      socket.once("secureConnect", () => resolve(`connected with ${socket.getProtocol()}`));
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    const plain = await new Promise<string>((resolve) => {
      const req = httpGet(`http://127.0.0.1:${port}/`, (response) =>
        resolve(`answered ${response.statusCode}`),
      );
      req.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });

    expect(old).toMatch(/^ERR_SSL_/);
    expect(plain).not.toMatch(/^answered 200/);
    await until(() => refused.length === 2);
    expect(refused).toEqual(["tls", "tls"]);
    expect(logger.at("warn").map((entry) => entry.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^REST API: a client offered only TLS older than 1\.2, which this listener refuses/,
        ),
        expect.stringMatching(
          /^REST API: a client spoke plain HTTP to this HTTPS listener; it must use https:\/\//,
        ),
      ]),
    );
  });

  it("warns at start of a certificate that expires within 30 days, naming it and the day", async () => {
    const dir = scratchDirectory("steward-https-");
    const files = await writeListenerCertificates(dir, "server", "127.0.0.1", 9);

    const { listener, logger } = await startTls(pemTls(dir, files));

    expect(await getOver(listener.url, { ca: files.ca })).toMatchObject({ status: 200 });
    expect(logger.at("warn").map((entry) => entry.message)).toEqual([
      expect.stringMatching(
        /^REST API: Service\.restServer\.tls\.cert: the certificate \(CN=127\.0\.0\.1\) expires on \d{4}-\d\d-\d\d, in [89] days: renew it/,
      ),
    ]);
  });

  it("fails its start naming the setting and the file when the certificate cannot be served", async () => {
    const dir = scratchDirectory("steward-https-");
    const files = await writeListenerCertificates(dir);
    const other = await writeListenerCertificates(dir, "other");

    const start = startTls({
      named: { path: PATH, settings: tlsSettings({ cert: files.certPath, key: other.keyPath }) },
      cwd: dir,
    });

    await expect(start).rejects.toThrow(
      /^REST API: Service\.restServer\.tls\.key: the key in .*other_key\.pem is not the key of the certificate in .*server\.pem$/,
    );
  });

  it("serves a replaced certificate to new connections while an open keep-alive connection goes on, and keeps it when the next files are unusable", async () => {
    const dir = scratchDirectory("steward-https-");
    const first = await writeListenerCertificates(dir, "server", "first.steward.test");
    const second = await writeListenerCertificates(dir, "renewed", "second.steward.test");
    const { listener, logger } = await startTls(pemTls(dir, first, 50));
    const trusting = { ca: [first.ca, second.ca] };
    const kept = new Agent({ ...trusting, keepAlive: true, maxSockets: 1 });
    onTestFinished(() => kept.destroy());
    const before = await getOver(listener.url, kept);

    // Renewal: the new certificate and key copied over the old files.
    writeFileSync(first.certPath, second.cert);
    writeFileSync(first.keyPath, readFileSync(second.keyPath));
    await until(() => logger.at("info").some((entry) => entry.message.includes("certificate files changed")));
    const onOpenConnection = await getOver(listener.url, kept);
    const onNewConnection = await getOver(listener.url, trusting);

    // A half-written replacement: refused, the renewed certificate still served.
    writeFileSync(first.certPath, "-----BEGIN CERTIFICATE-----\nMIIB\n");
    await until(() => logger.at("error").length > 0);
    // Six more reads of the same unusable files: still one ERROR.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterBadFiles = await getOver(listener.url, trusting);

    expect(before).toMatchObject({ status: 200, servedBy: "first.steward.test" });
    expect(onOpenConnection).toMatchObject({
      status: 200,
      body: "ok",
      servedBy: "first.steward.test",
      localPort: before.localPort,
    });
    expect(onNewConnection).toMatchObject({ status: 200, servedBy: "second.steward.test" });
    expect(afterBadFiles).toMatchObject({ status: 200, servedBy: "second.steward.test" });
    expect(logger.at("info")).toContainEqual(
      expect.objectContaining({
        message: "REST API: the certificate files changed; new connections get the new certificate",
        fields: { subject: "CN=second.steward.test", validUntil: expect.any(String) },
      }),
    );
    expect(logger.at("error")).toEqual([
      expect.objectContaining({
        message:
          "REST API: the certificate files changed but cannot be served; the previous certificate is still served",
        fields: expect.objectContaining({
          problem: expect.stringMatching(/^Service\.restServer\.tls\.cert: /),
        }),
      }),
    ]);
  });
});

describe("startHttpListener with tls at stop", () => {
  it("closes at its stop a connection that shook hands and sent no request, and one that never began its handshake", async () => {
    const dir = scratchDirectory("steward-https-");
    const files = await writeListenerCertificates(dir);
    const { listener } = await startTls(pemTls(dir, files));
    const closedWhenDone = (socket: Socket) => {
      socket.on("error", () => undefined);
      return new Promise<string>((resolve) => socket.once("close", () => resolve("closed")));
    };
    const shookHands = connect({ host: "127.0.0.1", port: listener.port, ca: files.ca });
    const silent = connectTcp(listener.port, "127.0.0.1");
    await Promise.all([
      new Promise((resolve) => shookHands.once("secureConnect", resolve)),
      new Promise((resolve) => silent.once("connect", resolve)),
    ]);
    const closed = [closedWhenDone(shookHands), closedWhenDone(silent)];
    // The server sees the handshake end a moment after the client does.
    await new Promise((resolve) => setTimeout(resolve, 50));

    const stopped = listener.stop().then(() => "stopped");

    const waited = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve("waiting"), ms));
    expect(await Promise.race([stopped, waited(1000)])).toBe("stopped");
    expect(await Promise.race([Promise.all(closed).then(() => "closed"), waited(1000)])).toBe("closed");
  });
});
