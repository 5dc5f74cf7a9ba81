import { createPrivateKey, X509Certificate } from "node:crypto";
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CA_COMMON_NAME,
  generateSelfSignedCertificate,
  generateThrowawayPki,
  THROWAWAY_PKI_FILE_NAMES,
  type ThrowawayPki,
  ThrowawayPkiError,
  writeThrowawayPki,
} from "../../../../local/simulated-platform/throwaway-pki.ts";
import { createTestPki, type TestPki } from "../../../fixtures/platform/pki.ts";

const SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
const CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
const DAY_MS = 24 * 60 * 60_000;
const ownerOnly = process.platform === "win32" ? it.skip : it;

describe("generateThrowawayPki", () => {
  let pki: ThrowawayPki;
  let ca: X509Certificate;
  let server: X509Certificate;
  let client: X509Certificate;
  const before = Date.now();

  beforeAll(async () => {
    pki = await generateThrowawayPki({ days: 7 });
    ca = new X509Certificate(pki.ca.cert);
    server = new X509Certificate(pki.server.cert);
    client = new X509Certificate(pki.client.cert);
  });

  it("makes a self-signed CA with critical basic constraints and key usage for signing certificates", async () => {
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe(`CN=${CA_COMMON_NAME}`);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    // node:crypto does not show criticality; read the extensions back with the generating library
    // (loaded by now, with what it needs to load).
    const x509 = await import("@peculiar/x509");
    const parsed = new x509.X509Certificate(pki.ca.cert);
    const basic = parsed.getExtension(x509.BasicConstraintsExtension);
    const usage = parsed.getExtension(x509.KeyUsagesExtension);
    expect(basic).toMatchObject({ ca: true, critical: true });
    expect(usage).toMatchObject({
      usages: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
      critical: true,
    });
  });

  it("signs a server certificate for localhost and 127.0.0.1, for server authentication only", () => {
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.subject).toBe("CN=localhost");
    expect(server.subjectAltName).toBe("DNS:localhost, IP Address:127.0.0.1");
    expect(server.checkHost("localhost")).toBe("localhost");
    expect(server.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(server.checkHost("example.com")).toBeUndefined();
    expect(server.keyUsage).toEqual([SERVER_AUTH]);
  });

  it("signs a client certificate named QlikClient, for client authentication only", () => {
    expect(client.checkIssued(ca)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(client.ca).toBe(false);
    expect(client.subject).toBe("CN=QlikClient");
    expect(client.keyUsage).toEqual([CLIENT_AUTH]);
  });

  it("gives each certificate its own PKCS#8 P-256 key that matches it", () => {
    for (const [cert, pair] of [
      [ca, pki.ca],
      [server, pki.server],
      [client, pki.client],
    ] as const) {
      expect(pair.cert).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/);
      expect(pair.key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      const key = createPrivateKey(pair.key);
      expect(key.asymmetricKeyDetails).toEqual({ namedCurve: "prime256v1" });
      expect(cert.checkPrivateKey(key)).toBe(true);
    }
    expect(new Set([pki.ca.key, pki.server.key, pki.client.key]).size).toBe(3);
    expect(server.checkPrivateKey(createPrivateKey(pki.client.key))).toBe(false);
  });

  it("is valid from a little before now until the given number of days", () => {
    for (const cert of [ca, server, client]) {
      const from = Date.parse(cert.validFrom);
      const to = Date.parse(cert.validTo);
      expect(from).toBeLessThan(before - 60_000);
      expect(from).toBeGreaterThan(before - 60 * 60_000);
      expect(to).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1_000);
      expect(to).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    }
  });

  it("puts the given DNS names and IP addresses into the server certificate", async () => {
    const custom = await generateThrowawayPki({
      serverNames: ["qlik.example.com", "10.1.2.3", "::1"],
      clientName: "sa_steward",
    });
    const cert = new X509Certificate(custom.server.cert);
    expect(cert.subject).toBe("CN=qlik.example.com");
    expect(cert.checkHost("qlik.example.com")).toBe("qlik.example.com");
    expect(cert.checkIP("10.1.2.3")).toBe("10.1.2.3");
    expect(cert.checkIP("::1")).toBe("::1");
    expect(cert.checkHost("localhost")).toBeUndefined();
    expect(new X509Certificate(custom.client.cert).subject).toBe("CN=sa_steward");
  });

  it("refuses no server names, an empty name and a validity that is not a positive number of days", async () => {
    await expect(generateThrowawayPki({ serverNames: [] })).rejects.toThrow(ThrowawayPkiError);
    await expect(generateThrowawayPki({ serverNames: ["localhost", " "] })).rejects.toThrow(
      ThrowawayPkiError,
    );
    await expect(generateThrowawayPki({ days: 0 })).rejects.toThrow(/positive number of days/);
    await expect(generateThrowawayPki({ days: Number.NaN })).rejects.toThrow(ThrowawayPkiError);
    await expect(generateThrowawayPki({ days: 1e9 })).rejects.toThrow(ThrowawayPkiError);
  });
});

describe("generateSelfSignedCertificate", () => {
  it("makes a self-signed certificate that a generated CA did not issue", async () => {
    const [pki, stranger] = await Promise.all([
      generateThrowawayPki(),
      generateSelfSignedCertificate({ commonName: "Stranger" }),
    ]);
    const cert = new X509Certificate(stranger.cert);
    expect(cert.subject).toBe("CN=Stranger");
    expect(cert.checkIssued(cert)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(stranger.key))).toBe(true);
    expect(cert.checkIssued(new X509Certificate(pki.ca.cert))).toBe(false);
  });
});

describe("writeThrowawayPki", () => {
  let pki: ThrowawayPki;
  let dir: string;

  beforeAll(async () => {
    pki = await generateThrowawayPki();
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes the CA, server and client files under the platform's export names, creating the folder", async () => {
    dir = await mkdtemp(join(tmpdir(), "steward-throwaway-pki-"));
    const target = join(dir, "certs");

    const files = await writeThrowawayPki(target, pki);

    expect((await readdir(target)).sort()).toEqual(
      ["client.pem", "client_key.pem", "root.pem", "server.pem", "server_key.pem"].sort(),
    );
    expect(files).toEqual({
      ca: join(target, "root.pem"),
      serverCert: join(target, "server.pem"),
      serverKey: join(target, "server_key.pem"),
      clientCert: join(target, "client.pem"),
      clientKey: join(target, "client_key.pem"),
    });
    expect(await readFile(files.ca, "utf8")).toBe(pki.ca.cert);
    expect(await readFile(files.serverCert, "utf8")).toBe(pki.server.cert);
    expect(await readFile(files.serverKey, "utf8")).toBe(pki.server.key);
    expect(await readFile(files.clientCert, "utf8")).toBe(pki.client.cert);
    expect(await readFile(files.clientKey, "utf8")).toBe(pki.client.key);
  });

  ownerOnly("makes the key files readable by their owner only", async () => {
    dir = await mkdtemp(join(tmpdir(), "steward-throwaway-pki-"));

    const files = await writeThrowawayPki(dir, pki);

    expect((await stat(files.serverKey)).mode & 0o777).toBe(0o600);
    expect((await stat(files.clientKey)).mode & 0o777).toBe(0o600);
  });

  it("refuses to overwrite an existing file and then writes none of the others", async () => {
    dir = await mkdtemp(join(tmpdir(), "steward-throwaway-pki-"));
    await writeFile(join(dir, THROWAWAY_PKI_FILE_NAMES.clientKey), "a key somebody keeps");

    await expect(writeThrowawayPki(dir, pki)).rejects.toThrow(ThrowawayPkiError);

    expect(await readdir(dir)).toEqual(["client_key.pem"]);
    expect(await readFile(join(dir, "client_key.pem"), "utf8")).toBe("a key somebody keeps");
  });

  ownerOnly("overwrites when asked, leaving the keys readable by their owner only", async () => {
    dir = await mkdtemp(join(tmpdir(), "steward-throwaway-pki-"));
    await writeThrowawayPki(dir, pki);
    await chmod(join(dir, THROWAWAY_PKI_FILE_NAMES.serverKey), 0o644);
    const fresh = await generateThrowawayPki();

    const files = await writeThrowawayPki(dir, fresh, { overwrite: true });

    expect(await readFile(files.serverCert, "utf8")).toBe(fresh.server.cert);
    expect(await readFile(files.serverKey, "utf8")).toBe(fresh.server.key);
    expect((await stat(files.serverKey)).mode & 0o777).toBe(0o600);
  });
});

describe("mutual TLS with the test fixture's certificates", () => {
  let pki: TestPki;
  let server: Server;
  let port: number;
  let caPem: Buffer;
  let served = 0;

  beforeAll(async () => {
    pki = await createTestPki();
    caPem = await readFile(pki.caPath);
    server = createServer(
      {
        cert: await readFile(pki.serverCertPath),
        key: await readFile(pki.serverKeyPath),
        ca: caPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        served += 1;
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        res.end(`hello ${peer.subject.CN}`);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await pki.remove();
  });

  async function get(certPath: string, keyPath: string, passphrase?: string): Promise<string> {
    const [cert, key] = await Promise.all([readFile(certPath), readFile(keyPath)]);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/",
          ca: caPem,
          cert,
          key,
          ...(passphrase === undefined ? {} : { passphrase }),
          agent: false,
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () => resolve(body));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end();
    });
  }

  it("accepts the client certificate the CA signed, having verified the server as 127.0.0.1", async () => {
    await expect(get(pki.clientCertPath, pki.clientKeyPath)).resolves.toBe("hello QlikClient");
  });

  it("refuses the stranger's self-signed certificate", async () => {
    const servedBefore = served;
    // The server ends the handshake (under TLS 1.3 after the client thinks it is done).
    await expect(get(pki.strangerCertPath, pki.strangerKeyPath)).rejects.toThrow(
      /socket hang up|ECONNRESET|alert/,
    );
    expect(served).toBe(servedBefore);
  });

  it("accepts the passphrase-protected client key with its passphrase", async () => {
    await expect(get(pki.clientCertPath, pki.encryptedClientKeyPath, pki.passphrase)).resolves.toBe(
      "hello QlikClient",
    );
  });

  it("loads the encrypted client key only with the right passphrase", async () => {
    const encrypted = await readFile(pki.encryptedClientKeyPath, "utf8");
    expect(encrypted).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----\n/);
    expect(() => createPrivateKey(encrypted)).toThrow();
    expect(() => createPrivateKey({ key: encrypted, passphrase: "wrong horse" })).toThrow();
    const key = createPrivateKey({ key: encrypted, passphrase: pki.passphrase });
    expect(new X509Certificate(await readFile(pki.clientCertPath)).checkPrivateKey(key)).toBe(true);
  });
});
