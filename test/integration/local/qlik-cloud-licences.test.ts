/**
 * The licences of two simulated Qlik Cloud tenants through a real `steward start`, with the site's
 * licence monitor off: at start, each tenant's allotments arrive in InfluxDB as
 * `qlik_sense_license` points tagged with its tenant (and its validity as a
 * `qlik_sense_server_license` point), and on `/metrics` as `steward_license_access_*{tenant}`. A
 * tenant whose licence call answers 404 "License not found" is logged once, counted on its API
 * errors and shown with its error on `/status`, while the other's licences and both tenants'
 * reload polling go on; started again once the tenant answers, its licences arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import { until } from "../../helpers/eventually.ts";
import { sampleValue } from "../../helpers/prometheus-text.ts";
import {
  type CloudStewardPorts,
  cloudStatus,
  freeCloudStewardPorts,
  registerWebhooks,
  scrape,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const DATABASE = "steward_cloud_licences";
const { skip, influxd } = influxdForSuite();
let cloud: SimulatedCloud;
let working: SimulatedTenant;
let failing: SimulatedTenant;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  [working, failing] = cloud.tenants as [SimulatedTenant, SimulatedTenant];
});
afterAll(async () => {
  await cloud?.stop();
});

/** The last `qlik_sense_license` point of each licence type of `tenant`: [type, total, used, available, overage]. */
async function licencePoints(tenant: string): Promise<unknown[][]> {
  const answer = await influxd.query(
    `SELECT last(total), last(used), last(available), last(overage) FROM qlik_sense_license WHERE tenant = '${tenant}' GROUP BY license_type`,
    DATABASE,
  );
  return (answer.results[0]?.series ?? []).map((series) => [
    (series as unknown as { tags: Record<string, string> }).tags.license_type,
    ...(series.values?.[0]?.slice(1) ?? []),
  ]);
}

const licenceCalls = (tenant: SimulatedTenant) =>
  tenant.state.calls.filter((call) => call.includes("/api/v1/licenses/overview")).length;

const warnLines = (steward: StewardProcess) =>
  steward
    .output()
    .split("\n")
    .filter((line) => line.includes("licences could not be read"));

describe.skipIf(skip)("Qlik Cloud tenants' licences through `steward start`", () => {
  const scratch = suiteScratchDirectory("steward-qlik-cloud-licences-");
  let ports: CloudStewardPorts;
  let steward: StewardProcess;

  beforeAll(async () => {
    ports = await freeCloudStewardPorts();
    writeCloudConfig(scratch.root, {
      tenants: cloud.tenants,
      ports,
      outputs: {
        smtpPort: 9,
        captureUrl: "http://127.0.0.1:9",
        influxPort: influxd.port,
        database: DATABASE,
      },
    });
    registerWebhooks(cloud.tenants, ports.ingest);
    failing.state.licences.missing = true;
    steward = await startStewardIn(scratch.root, { onTestFinished: () => undefined });
  });
  afterAll(() => {
    if (steward?.child.exitCode === null) steward.child.kill("SIGKILL");
  });

  it("writes each allotment of a tenant as a qlik_sense_license point tagged with the tenant, and its validity", async () => {
    const name = working.fixture.name;
    await until(async () => (await licencePoints(name)).length === 3, 10_000, 100);

    expect(await licencePoints(name)).toEqual([
      ["analyzer", 500, 120, 380, null],
      ["analyzer_time", 300, 242, 58, 100],
      ["professional", 200, 15, 185, null],
    ]);
    // With the site's licence monitor off, the tenants' licences keep its default schedule.
    expect(steward.output()).toContain(
      `Reading the Qlik Cloud tenants' licences tenants="sim-a,sim-b" frequency="every 6 hours"`,
    );
    const server = await influxd.query(
      `SELECT expiry_date, license_expired FROM qlik_sense_server_license WHERE tenant = '${name}' ORDER BY time DESC LIMIT 1`,
      DATABASE,
    );
    expect(server.results[0]?.series?.[0]?.values?.[0]?.slice(1)).toEqual(["2027-12-31", false]);
  });

  it("shows the allotments on /metrics with the tenant label", async () => {
    const name = working.fixture.name;
    const samples = await scrape(ports.scrape);
    const labels = { license_type: "professional", tenant: name };

    expect(sampleValue(samples, "steward_license_access_total", labels)).toBe(200);
    expect(sampleValue(samples, "steward_license_access_used", labels)).toBe(15);
    expect(sampleValue(samples, "steward_license_access_available", labels)).toBe(185);
    expect(
      sampleValue(samples, "steward_license_access_overage", { license_type: "analyzer_time", tenant: name }),
    ).toBe(100);
    expect(
      sampleValue(samples, "steward_license_access_total", {
        license_type: "professional",
        tenant: failing.fixture.name,
      }),
    ).toBeUndefined();
  });

  it("logs a tenant's failing licence call, counts it, shows it, and keeps the other tenant and the polling going", async () => {
    const name = failing.fixture.name;
    await until(() => warnLines(steward).length > 0, 10_000, 100);

    expect(warnLines(steward)).toHaveLength(1);
    expect(warnLines(steward)[0]).toContain(`tenant=${name}`);
    expect(warnLines(steward)[0]).toContain("License not found");
    expect(await licencePoints(name)).toEqual([]);
    const status = await cloudStatus(ports.ui);
    expect(status[name]).toMatchObject({
      apiErrors: { "404": expect.any(Number) },
      licences: { failures: expect.any(Number), lastError: { message: expect.stringContaining("404") } },
    });
    expect(status[name]?.licences).not.toHaveProperty("allotments");
    expect(status[working.fixture.name]).toMatchObject({
      licences: {
        allotments: expect.arrayContaining([{ type: "professional", counts: expect.any(Object) }]),
      },
      cursors: { reloads: { lagSeconds: expect.any(Number) } },
    });
    expect(status[name]).toMatchObject({ cursors: { reloads: { lagSeconds: expect.any(Number) } } });
    expect(licenceCalls(failing)).toBe(1);
  });

  it("reads the tenant's licences at the next start once it answers, with its changed count", async () => {
    const name = failing.fixture.name;
    steward.child.kill("SIGTERM");
    expect((await steward.exited()).code).toBe(0);
    failing.state.licences.professionalUsed = 40;
    failing.state.licences.missing = false;
    steward = await startStewardIn(scratch.root, { onTestFinished: () => undefined });

    await until(async () => (await licencePoints(name)).length === 3, 10_000, 100);
    expect(await licencePoints(name)).toContainEqual(["professional", 200, 40, 160, null]);
    await until(
      async () =>
        sampleValue(await scrape(ports.scrape), "steward_license_access_used", {
          license_type: "professional",
          tenant: name,
        }) === 40,
      5000,
      100,
    );
    expect(warnLines(steward)).toEqual([]);
  });
});
