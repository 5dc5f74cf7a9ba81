/**
 * The Qlik Cloud tenants' licence reading against two simulated tenants on loopback, through the
 * tenant clients: points per allotment tagged with the tenant, a failing tenant logged once per
 * outage with its last good reading kept, and a tenant that does not answer holding up no other.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTenantHttpClient } from "../../../../core/adapters/qlik-cloud/tenant-http-client.ts";
import { licenceGaugesOf } from "../../../../core/licences/license-gauges.ts";
import { createCloudInputMonitor } from "../../../../core/qlik-cloud/cloud-input-monitor.ts";
import { createTenantLicences } from "../../../../core/qlik-cloud/tenant-licences.ts";
import { encodePoints, type Point } from "../../../../core/shared/line-protocol.ts";
import type { SimulatedTenant } from "../../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { until } from "../../../helpers/eventually.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { createWaitingClock } from "../../../helpers/waiting-clock.ts";

let cloud: SimulatedCloud;
let a: SimulatedTenant;
let b: SimulatedTenant;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  [a, b] = cloud.tenants as [SimulatedTenant, SimulatedTenant];
});
afterAll(() => cloud.stop());
beforeEach(() => {
  for (const tenant of [a, b]) {
    tenant.state.licences.missing = false;
    tenant.state.licences.professionalUsed = 15;
    tenant.state.faults.stalled = false;
  }
});

function licencesOf(tenants: readonly SimulatedTenant[]) {
  const clock = createWaitingClock();
  const metrics = createMemoryMetricsRegistry();
  const monitor = createCloudInputMonitor(metrics, clock);
  const logger = recordingLogger();
  const written: Point[] = [];
  const licences = createTenantLicences({
    tenants: tenants.map((tenant) => ({
      name: tenant.fixture.name,
      client: createTenantHttpClient({
        tenant: tenant.fixture.name,
        url: tenant.url,
        credential: {
          oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret },
        },
        clock,
        events: monitor,
        timeoutMs: 5000,
      }),
      tags: [{ name: "qs_env", value: "prod" }],
    })),
    write: async (points) => void written.push(...points),
    gauges: licenceGaugesOf(metrics),
    clock,
    logger,
  });
  const gauge = (name: string, tenant: string) =>
    metrics
      .scrape()
      .find((metric) => metric.name === name)
      ?.samples.find(
        (sample) => sample.labels.tenant === tenant && sample.labels.license_type === "professional",
      )?.value;
  return { licences, written, logger, monitor, gauge };
}

const lines = (points: readonly Point[], tenant: string) =>
  encodePoints(points.filter((point) => point.tags.tenant === tenant))
    .split("\n")
    .map((line) => line.replace(/ \d+$/, ""));

describe("the Qlik Cloud tenants' licences", () => {
  it("write each tenant's allotments and validity tagged with the tenant and its static tags", async () => {
    const { licences, written, gauge } = licencesOf([a, b]);
    b.state.licences.professionalUsed = 40;

    await licences.readAll(new AbortController().signal);

    expect(lines(written, "sim-a")).toEqual([
      "qlik_sense_license,license_type=professional,qs_env=prod,tenant=sim-a total=200,used=15,available=185",
      "qlik_sense_license,license_type=analyzer,qs_env=prod,tenant=sim-a total=500,used=120,available=380",
      "qlik_sense_license,license_type=analyzer_time,qs_env=prod,tenant=sim-a total=300,used=242,available=58,overage=100",
      expect.stringMatching(
        /^qlik_sense_server_license,qs_env=prod,tenant=sim-a license_expired=false,expiry_date="2027-12-31",days_until_expiry=\d+$/,
      ),
    ]);
    expect(lines(written, "sim-b")[0]).toBe(
      "qlik_sense_license,license_type=professional,qs_env=prod,tenant=sim-b total=200,used=40,available=160",
    );
    expect([
      gauge("steward_license_access_used", "sim-a"),
      gauge("steward_license_access_used", "sim-b"),
    ]).toEqual([15, 40]);
  });

  it("log a failing tenant once per outage, count it, and keep its last good reading", async () => {
    const { licences, written, logger, monitor, gauge } = licencesOf([a, b]);
    const signal = new AbortController().signal;
    await licences.readAll(signal);
    b.state.licences.missing = true;
    b.state.licences.professionalUsed = 99;
    written.length = 0;

    await licences.readAll(signal);
    await licences.readAll(signal);

    const warned = logger.at("warn").map((entry) => [entry.message, entry.fields?.tenant]);
    expect(warned).toEqual([
      ["A Qlik Cloud tenant's licences could not be read; the last reading stays", "sim-b"],
    ]);
    expect(logger.at("warn")[0]?.fields?.error).toContain("404: License not found");
    expect(logger.at("verbose").filter((entry) => entry.fields?.tenant === "sim-b")).toHaveLength(1);
    expect(lines(written, "sim-b")).toEqual([""]);
    expect(lines(written, "sim-a")).toHaveLength(8);
    expect(monitor.status("sim-b").apiErrors["404"]).toBeGreaterThanOrEqual(2);
    expect(licences.status("sim-b")).toMatchObject({
      reads: 1,
      failures: 2,
      allotments: expect.arrayContaining([
        { type: "professional", counts: { total: 200, used: 15, available: 185 } },
      ]),
      lastError: { message: expect.stringContaining("License not found") },
    });
    expect(gauge("steward_license_access_used", "sim-b")).toBe(15);

    b.state.licences.missing = false;
    await licences.readAll(signal);
    expect(logger.at("info").map((entry) => entry.message)).toContain(
      "A Qlik Cloud tenant's licences are read again",
    );
    expect(gauge("steward_license_access_used", "sim-b")).toBe(99);
  });

  it("read a tenant that answers while another does not answer at all", async () => {
    const { licences, written, logger } = licencesOf([a, b]);
    b.state.faults.stalled = true;
    const abort = new AbortController();

    const all = licences.readAll(abort.signal);
    await until(() => lines(written, "sim-a").length === 4, 3000, 10);
    expect(lines(written, "sim-b")).toEqual([""]);
    abort.abort();
    await all;
    // Given up by the caller (a stop): no outage of the tenant's is logged or shown.
    expect(licences.status("sim-b")).toEqual({ reads: 0, failures: 0 });
    expect(logger.at("warn")).toEqual([]);
  });
});
