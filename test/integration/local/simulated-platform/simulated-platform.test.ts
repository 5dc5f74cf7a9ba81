/**
 * The simulated platform itself: its health, session and licence answers change between calls
 * and keep the platform's shape, it checks the xrfkey pair, and it demands a trusted client certificate.
 */
import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAccessLicences } from "../../../../core/licences/access-licences.ts";
import { readServerLicence } from "../../../../core/licences/server-licence.ts";
import { readVersionInfo } from "../../../../core/licences/version-info.ts";
import { readEngineHealth } from "../../../../core/platform/engine-health.ts";
import { readProxySessions } from "../../../../core/platform/proxy-sessions.ts";
import {
  type SimulatedPlatform,
  startSimulatedPlatform,
} from "../../../../local/simulated-platform/start-simulated-platform.ts";
import { createTestPki, type TestPki } from "../../../fixtures/platform/pki.ts";

let pki: TestPki;
let platform: SimulatedPlatform;
let client: { cert: Buffer; key: Buffer; ca: Buffer };

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  tls: Partial<typeof client> = client,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers, ...tls, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({
          status: res.statusCode ?? 0,
          body: res.headers["content-type"]?.includes("json") ? JSON.parse(text) : text,
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const context = { where: "simulated", call: "GET", status: 200 };

beforeAll(async () => {
  pki = await createTestPki();
  const [cert, key, ca, clientCert, clientKey] = await Promise.all(
    [pki.serverCertPath, pki.serverKeyPath, pki.caPath, pki.clientCertPath, pki.clientKeyPath].map((path) =>
      readFile(path),
    ),
  );
  client = { cert: clientCert as Buffer, key: clientKey as Buffer, ca: ca as Buffer };
  platform = await startSimulatedPlatform({
    tls: { cert: cert as Buffer, key: key as Buffer, ca: ca as Buffer },
    servers: 2,
  });
});

afterAll(async () => {
  await platform?.stop();
  await pki?.remove();
});

describe("startSimulatedPlatform", () => {
  it("opens one listener per server", () => {
    const ports = platform.servers.map((server) => server.port);
    expect(new Set(ports).size).toBe(2);
    expect(platform.servers.map((server) => server.address)).toEqual(
      ports.map((port) => `127.0.0.1:${port}`),
    );
  });

  it("answers health checks whose values change between calls and keep their shape", async () => {
    // Prepare
    const port = platform.servers[0]?.port as number;

    // Act
    const first = readEngineHealth((await get(port, "/engine/healthcheck")).body, context);
    const second = readEngineHealth((await get(port, "/engine/healthcheck")).body, context);

    // Assess
    expect(second.mem.committed).not.toBe(first.mem.committed);
    expect(second.cache.lookups).toBeGreaterThanOrEqual(first.cache.lookups);
    expect(second.apps.calls).toBeGreaterThanOrEqual(first.apps.calls);
    expect(second.started).toBe(first.started);
    expect(first.mem.allocated).toBeLessThanOrEqual(first.mem.committed);
    expect(first.users.active).toBeLessThanOrEqual(first.users.total);
  });

  it("answers session lists that change over calls and keep their shape", async () => {
    // Prepare
    const port = platform.servers[1]?.port as number;
    const headers = { "X-Qlik-Xrfkey": "abcdefghij987654", XVirtualProxy: "/hdr" };

    // Act
    const lists = [];
    for (let i = 0; i < 6; i++) {
      const answer = await get(port, "/qps/hdr/session?xrfkey=abcdefghij987654", headers);
      lists.push(
        readProxySessions(answer.body, context)
          .sessions.map((s) => s.sessionId)
          .join(","),
      );
    }

    // Assess
    expect(new Set(lists).size).toBeGreaterThan(1);
    expect(platform.servers[1]?.calls.at(-1)?.headers.xvirtualproxy).toBe("/hdr");
  });

  it("answers licence overviews whose allocated and used counts move between calls and keep their shape", async () => {
    // Prepare
    const port = platform.servers[0]?.port as number;
    const headers = {
      "X-Qlik-Xrfkey": "abcdefghij987654",
      "X-Qlik-User": "UserDirectory=Internal;UserId=sa_repository",
    };

    // Act
    const readings = [];
    for (let i = 0; i < 6; i++) {
      const answer = await get(port, "/qrs/license/accesstypeoverview?xrfkey=abcdefghij987654", headers);
      readings.push(readAccessLicences(answer.body));
    }
    const licence = await get(port, "/qrs/license?xrfkey=abcdefghij987654", headers);
    const version = await get(port, "/v1/systeminfo");

    // Assess
    const allocated = readings.map((r) =>
      JSON.stringify(r.map((type) => [type.counts.allocated, type.counts.used])),
    );
    expect(new Set(allocated).size).toBeGreaterThan(1);
    for (const reading of readings) {
      const analyzer = reading.find((type) => type.type === "analyzer")?.counts ?? {};
      expect(analyzer.used).toBeLessThanOrEqual(analyzer.allocated as number);
      expect(analyzer.available).toBe((analyzer.total as number) - (analyzer.allocated as number));
    }
    expect(readServerLicence(licence.body, Date.now())).toMatchObject({
      expired: false,
      daysUntilExpiry: 365,
    });
    expect(readVersionInfo(version.body).version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("answers 400 when the Xrfkey query and header differ", async () => {
    // Prepare
    const port = platform.servers[0]?.port as number;

    // Act
    const answer = await get(port, "/qps/session?Xrfkey=abcdefghij987654", {
      "X-Qlik-Xrfkey": "abcdefghij000000",
    });

    // Assess
    expect(answer.status).toBe(400);
  });

  it("fails the TLS handshake for a client without a certificate", async () => {
    // Prepare
    const port = platform.servers[0]?.port as number;

    // Act / Assess
    await expect(get(port, "/engine/healthcheck", {}, { ca: client.ca })).rejects.toThrow();
  });
});
