/**
 * `steward start` with HTTPS on every listener a client reaches over the network: the ingest API
 * and the REST API with PEM files, the status page with a passphrase-protected PFX, the scrape
 * endpoint with an encrypted key. Node's HTTPS client, trusting only the test CA, gets an answer
 * from each; the start-up lines name each listener's certificate and its https:// address; and
 * the container health check stays plain HTTP on loopback, so `steward healthcheck` still works.
 */
import { writeFileSync } from "node:fs";
import { request } from "node:https";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { TEST_PASSPHRASE, writeListenerCertificates } from "../../helpers/listener-certificates.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { spawnStewardForTest, startStewardIn } from "../../helpers/started-steward.ts";

/** The status code of GET `url` over HTTPS, trusting only `ca`. */
function statusOf(url: string, ca: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.once("error", reject);
    req.end();
  });
}

describe("steward start with HTTPS on every listener", () => {
  it("answers Node's HTTPS client on each, names each certificate and https:// address at start, and keeps the health check on loopback HTTP", async () => {
    // Prepare
    const dir = scratchDirectory("steward-https-all-");
    const files = await writeListenerCertificates(dir);
    const ports = {
      ingest: await freePort(),
      rest: await freePort(),
      ui: await freePort(),
      scrape: await freePort(),
      health: await freePort(),
    };
    const pem = "{ enable: true, cert: server.pem, key: server_key.pem }";
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    enable: true
    port: ${ports.ingest}
    tls: ${pem}
  restServer:
    enable: true
    port: ${ports.rest}
    tls: ${pem}
  configVisualisation:
    enable: true
    port: ${ports.ui}
    tls: { enable: true, pfx: server.pfx, passphrase: "\${TLS_PASSPHRASE}" }
  scrapeEndpoint:
    enable: true
    port: ${ports.scrape}
    tls: { enable: true, cert: server.pem, key: server_key_encrypted.pem, passphrase: "\${TLS_PASSPHRASE}" }
  containerHealthCheck:
    enable: true
    port: ${ports.health}
`,
    );
    const env = { ...process.env, TLS_PASSPHRASE: TEST_PASSPHRASE };

    // Act
    const steward = await startStewardIn(dir, { env });
    const answers = {
      ingest: await statusOf(`https://127.0.0.1:${ports.ingest}/api/v1/test-connection`, files.ca, {
        "x-audit-client-version": "0.3.0",
      }),
      rest: await statusOf(`https://127.0.0.1:${ports.rest}/v4/ping`, files.ca),
      ui: await statusOf(`https://127.0.0.1:${ports.ui}/status`, files.ca),
      scrape: await statusOf(`https://127.0.0.1:${ports.scrape}/metrics`, files.ca),
    };
    const healthcheck = spawnStewardForTest(["healthcheck", "--config", "steward.yaml"], { cwd: dir, env });
    const healthExit = await new Promise<number | null>((resolve) => healthcheck.child.once("exit", resolve));

    // Assess
    expect(answers).toEqual({ ingest: 200, rest: 200, ui: 200, scrape: 200 });
    const output = steward.output();
    for (const [name, port] of [
      ["Audit ingest API", ports.ingest],
      ["REST API", ports.rest],
      ["Config UI", ports.ui],
      ["Scrape endpoint", ports.scrape],
    ] as const) {
      expect(output, name).toMatch(new RegExp(`${name} serves HTTPS .*subject="?CN=127\\.0\\.0\\.1`));
      expect(output, name).toMatch(
        new RegExp(`${name} listening url=https://(127\\.0\\.0\\.1|localhost):${port}\n`),
      );
    }
    expect(healthExit).toBe(0);
  }, 60_000);
});
