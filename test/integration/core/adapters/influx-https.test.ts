/**
 * The time-series database over HTTPS (`timeseriesdbConfig.tls`), against Debian's InfluxDB 1.x
 * serving HTTPS only with a throwaway CA's certificate: points are written and read back with the
 * server's certificate checked against `caFile`; a certificate that CA did not sign, or one no
 * system CA trusts, is refused with an error that says so, and nothing is written; through
 * `steward start`, user events land in the database over HTTPS, and a CA file that cannot be
 * read stops the start naming the setting and the file.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTimeseriesClient } from "../../../../core/adapters/influx/create-timeseries-client.ts";
import type { TimeseriesdbConfig } from "../../../../core/config/index.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import { integerField, type Point } from "../../../../core/shared/line-protocol.ts";
import { createTestPki, type TestPki } from "../../../fixtures/platform/pki.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../../helpers/send-datagrams.ts";
import { spawnStewardIn, startStewardIn } from "../../../helpers/started-steward.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

let pki: TestPki | undefined;
/** A PEM file of the suite's PKI (made before the tests run). */
const pem = (file: keyof Pick<TestPki, "caPath" | "strangerCertPath">) => (pki as TestPki)[file];
const { skip, influxd } = influxdForSuite({
  https: async () => {
    pki = await createTestPki();
    return { certificate: pki.serverCertPath, privateKey: pki.serverKeyPath, ca: pki.caPath };
  },
});
afterAll(() => pki?.remove());

function httpsConfig(dbName: string, tls: Partial<TimeseriesdbConfig["tls"]>): TimeseriesdbConfig {
  const config = timeseriesConfig(1, influxd.port);
  return {
    ...config,
    tls: { enable: true, caFile: "", rejectUnauthorized: true, ...tls },
    v1Config: { ...config.v1Config, dbName },
  };
}

const points = (): Point[] => {
  const base = Date.now() - 60_000;
  return [1, 2, 3].map((n) => ({
    measurement: "tls",
    tags: {},
    fields: { n: integerField(n) },
    timestampMs: base + n,
  }));
};

async function databases(): Promise<string[]> {
  const answer = await influxd.query("SHOW DATABASES");
  return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => String(row[0]));
}

describe.skipIf(skip)("InfluxDB over HTTPS", () => {
  it("writes points over HTTPS, the server's certificate checked against caFile", async () => {
    const series = createTimeseriesClient(httpsConfig("tls_ok", { caFile: pem("caPath") }));

    await series.ensureDatabase();
    await series.write(points());

    const answer = await influxd.query("SELECT sum(n) FROM tls", "tls_ok");
    expect(answer.results[0]?.series?.[0]?.values[0]?.[1]).toBe(6);
    expect(influxd.base).toMatch(/^https:/);
  });

  it("refuses a certificate the configured CA did not sign, saying so, and writes nothing", async () => {
    const series = createTimeseriesClient(httpsConfig("tls_stranger", { caFile: pem("strangerCertPath") }));

    const error = await series.ensureDatabase().catch((e: unknown) => e);
    const writeError = await series.write(points()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TimeseriesWriteError);
    expect((error as TimeseriesWriteError).message).toMatch(
      /^GET https:\/\/127\.0\.0\.1:\d+\/query failed: the server's certificate was refused \(.+\); trust its CA with timeseriesdbConfig\.tls\.caFile$/,
    );
    // An outage, retried, never a refusal of the points.
    expect((writeError as TimeseriesWriteError).status).toBeUndefined();
    expect((writeError as TimeseriesWriteError).refusesData).toBe(false);
    expect(await databases()).not.toContain("tls_stranger");
  });

  it("refuses a certificate no system CA trusts when no caFile is given", async () => {
    const series = createTimeseriesClient(httpsConfig("tls_system", {}));

    const error = await series.ensureDatabase().catch((e: unknown) => e);

    expect((error as Error).message).toMatch(/the server's certificate was refused/);
    expect(await databases()).not.toContain("tls_system");
  });

  it("says the server takes no HTTPS when pointed at a plain http port", async () => {
    const plain = await freePort();
    const { createServer } = await import("node:http");
    const server = createServer((_request, response) => response.end("plain"));
    await new Promise<void>((resolve) => server.listen(plain, "127.0.0.1", resolve));
    try {
      const series = createTimeseriesClient({ ...httpsConfig("tls_plain", {}), port: plain });

      const error = await series.ensureDatabase().catch((e: unknown) => e);

      expect((error as Error).message).toMatch(
        /failed: no TLS handshake \(.+\); is the server serving HTTPS/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.skipIf(skip)("InfluxDB over HTTPS, through `steward start`", () => {
  const config = (port: number, caFile: string) => `Service:
  restServer:
    enable: false
  auditEvents:
    enable: false
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    tls:
      enable: true
      caFile: ${caFile}
    v1Config:
      dbName: tls_steward
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${port}
    sendToTimeseriesdb:
      enable: true
`;

  it("writes user events into the database over HTTPS, with a CA file relative to the working directory", async () => {
    const dir = scratchDirectory("steward-influx-https-");
    mkdirSync(join(dir, "certs"));
    copyFileSync(pem("caPath"), join(dir, "certs", "influx-ca.pem"));
    const port = await freePort();
    writeFileSync(join(dir, "steward.yaml"), config(port, "certs/influx-ca.pem"));
    const proc = await startStewardIn(dir);

    await sendDatagrams(port, [
      "/qseow-proxy-session/;host2;Start session;LAB;anna;https://host2;/hub;UserAgent: Chrome/91.0",
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();

    expect(code).toBe(0);
    const answer = await influxd.query('SELECT count("userId") FROM "user_events"', "tls_steward");
    expect(answer.results[0]?.series?.[0]?.values[0]?.[1]).toBe(1);
  });

  it("does not start when the CA file cannot be read, naming the setting and the file", async () => {
    const dir = scratchDirectory("steward-influx-https-");
    writeFileSync(join(dir, "steward.yaml"), config(await freePort(), "certs/missing-ca.pem"));

    const proc = spawnStewardIn(dir);
    const { code } = await proc.exited();

    expect(code).toBe(1);
    expect(proc.output()).toContain(
      `Service.timeseriesdbConfig.tls.caFile: cannot read file ${join(dir, "certs", "missing-ca.pem")} (ENOENT)`,
    );
    expect(proc.output()).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });
});
