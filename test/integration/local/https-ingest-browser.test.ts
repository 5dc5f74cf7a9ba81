/**
 * The ingest API over HTTPS, as the browser client of a Qlik Sense hub served over HTTPS reaches
 * it: `steward start` with `auditEvents.tls` (a test CA's certificate), a page served over HTTPS
 * with the same test CA, and Debian's Chromium trusting exactly that certificate
 * (`--ignore-certificate-errors-spki-list` pins its public key; nothing else is trusted). The
 * page's script posts an audit event with CORS to `https://127.0.0.1:<port>/api/v1/audit-event`:
 * 202, and the event is written. The same page posting to a plain `http://` ingest is blocked by
 * the browser as mixed content before any byte leaves it: the reason HTTPS on the listener is
 * needed at all.
 */
import { createHash, X509Certificate } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { createServer as createHttpsServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonEventIds } from "../../helpers/audit-destination-contents.ts";
import { objectDataEvent } from "../../helpers/audit-events.ts";
import { type Browser, launchChromium, skipWithoutChromium } from "../../helpers/chromium.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import {
  type ListenerCertificateFiles,
  writeListenerCertificates,
} from "../../helpers/listener-certificates.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

const skip = skipWithoutChromium();

/** A name that is not loopback to the browser (loopback is exempt from mixed-content blocking). */
const PLAIN_INGEST_NAME = "ingest.steward.test";

const PAGE = `<!doctype html><title>hub</title><script>
window.post = async (url, body) => {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
      body,
    });
    return "status " + response.status;
  } catch (error) {
    return "failed " + error.message;
  }
};
</script>`;

/** The base64 SHA-256 of the certificate's public key, as Chromium's pin list takes it. */
function spkiHash(pem: string): string {
  const der = new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" });
  return createHash("sha256").update(der).digest("base64");
}

async function listenOnLoopback(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

let dir: string;
let files: ListenerCertificateFiles;
let steward: StewardProcess;
let ingestPort: number;
let page: Server;
let pageOrigin: string;
const plainRequests: IncomingMessage[] = [];
const plainIngest = createHttpServer((request, response) => {
  plainRequests.push(request);
  response.writeHead(202).end();
});
let plainPort: number;
let browser: Browser;
const cleanUps: (() => void)[] = [];

beforeAll(async () => {
  if (skip) return;
  // A hook registered inside beforeAll never runs: the file's afterAll runs these instead.
  dir = scratchDirectory("steward-https-ingest-", (cleanUp) => cleanUps.push(cleanUp));
  files = await writeListenerCertificates(dir);
  page = createHttpsServer({ cert: files.cert, key: readFileSync(files.keyPath) }, (_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end(PAGE);
  });
  pageOrigin = `https://127.0.0.1:${await listenOnLoopback(page)}`;
  plainPort = await listenOnLoopback(plainIngest);
  ingestPort = await freePort();
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    enable: true
    port: ${ingestPort}
    cors:
      allowedOrigins: ["${pageOrigin}"]
    tls:
      enable: true
      cert: server.pem
      key: server_key.pem
    destination:
      enable: true
      type: json
      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  restServer:
    enable: false
`,
  );
  steward = await startStewardIn(dir, { onTestFinished: (kill) => cleanUps.unshift(kill) });
  browser = await launchChromium([
    `--ignore-certificate-errors-spki-list=${spkiHash(files.cert)}`,
    `--host-resolver-rules=MAP ${PLAIN_INGEST_NAME} 127.0.0.1`,
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  page?.close();
  plainIngest.close();
  // Steward first, then its directory.
  for (const cleanUp of cleanUps) cleanUp();
});

describe.skipIf(skip)("an HTTPS page posting audit events from Chromium", () => {
  it("says https:// in the listener's start-up line", () => {
    expect(steward.output()).toContain(`https://127.0.0.1:${ingestPort}`);
  });

  it("is accepted (202) by the HTTPS ingest API with CORS, and the event is written", async () => {
    const tab = await browser.context.newPage();
    await tab.goto(`${pageOrigin}/`);
    const event = objectDataEvent({ qHyperCube: { qSize: { qcx: 1, qcy: 1 } } }).envelope;

    const answer = await tab.evaluate(
      ([url, body]) =>
        (globalThis as unknown as { post(u: string, b: string): Promise<string> }).post(url, body),
      [`https://127.0.0.1:${ingestPort}/api/v1/audit-event`, JSON.stringify(event)] as const,
    );

    expect(answer).toBe("status 202");
    await until(() => jsonEventIds(join(dir, "out", "json")).includes(event.eventId), 10_000);
  });

  it("is blocked by the browser as mixed content when the ingest is plain http://, reaching no server", async () => {
    const tab = await browser.context.newPage();
    const console: string[] = [];
    tab.on("console", (message) => console.push(message.text()));
    await tab.goto(`${pageOrigin}/`);
    const event = objectDataEvent({ qHyperCube: {} }).envelope;

    const answer = await tab.evaluate(
      ([url, body]) =>
        (globalThis as unknown as { post(u: string, b: string): Promise<string> }).post(url, body),
      [`http://${PLAIN_INGEST_NAME}:${plainPort}/api/v1/audit-event`, JSON.stringify(event)] as const,
    );

    expect(answer).toMatch(/^failed /);
    expect(console.join("\n")).toMatch(/Mixed Content/);
    expect(plainRequests).toEqual([]);
  });
});
