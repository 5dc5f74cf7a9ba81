import { describe, expect, it } from "vitest";
import {
  declareLicenceGauges,
  type LicenceReadings,
  licenceGaugesOf,
} from "../../../../core/licences/license-gauges.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";

function scrape(readings: LicenceReadings) {
  const registry = createMemoryMetricsRegistry();
  declareLicenceGauges(registry, () => readings);
  const metrics = registry.scrape();
  return (name: string) => metrics.find((metric) => metric.name === name)?.samples;
}

describe("declareLicenceGauges", () => {
  it("gives each access type's counts a series labelled with the type", () => {
    const samples = scrape({
      access: [
        { type: "professional", counts: { allocated: 30, available: 20 } },
        { type: "analyzer", counts: { allocated: 60 } },
        { type: "analyzer_capacity", counts: { used_minutes: 1234 } },
      ],
      server: undefined,
    });

    expect(samples("steward_license_access_allocated")).toEqual([
      { labels: { license_type: "professional" }, value: 30 },
      { labels: { license_type: "analyzer" }, value: 60 },
    ]);
    expect(samples("steward_license_access_available")).toEqual([
      { labels: { license_type: "professional" }, value: 20 },
    ]);
    expect(samples("steward_license_access_used_minutes")).toEqual([
      { labels: { license_type: "analyzer_capacity" }, value: 1234 },
    ]);
  });

  it("gives the server licence's signed days and expired flag", () => {
    const samples = scrape({
      access: [],
      server: { expired: true, expiryDate: "2027-01-31", daysUntilExpiry: -4 },
    });

    expect(samples("steward_license_server_days_until_expiry")).toEqual([{ labels: {}, value: -4 }]);
    expect(samples("steward_license_server_expired")).toEqual([{ labels: {}, value: 1 }]);
  });

  it("shows no series for what was not read: before the first run, or a licence without a date", () => {
    const firstRun = scrape({ access: undefined, server: undefined });
    const noDate = scrape({
      access: [],
      server: { expired: false, expiryDate: undefined, daysUntilExpiry: undefined },
    });

    expect(firstRun("steward_license_access_allocated")).toEqual([]);
    expect(firstRun("steward_license_server_expired")).toEqual([]);
    expect(noDate("steward_license_server_days_until_expiry")).toEqual([]);
    expect(noDate("steward_license_server_expired")).toEqual([{ labels: {}, value: 0 }]);
  });
});

describe("licenceGaugesOf", () => {
  it("shows a Qlik Cloud tenant's allotments with its tenant label beside the site's, which have none", () => {
    const registry = createMemoryMetricsRegistry();
    declareLicenceGauges(registry, () => ({
      access: [{ type: "professional", counts: { total: 50, used: 10 } }],
      server: { expired: false, expiryDate: "2027-01-31", daysUntilExpiry: 40 },
    }));
    licenceGaugesOf(registry).show("acme-eu", () => ({
      access: [
        { type: "professional", counts: { total: 200, used: 15, available: 185 } },
        { type: "analyzer_time", counts: { total: 300, used: 242, available: 58, overage: -1 } },
      ],
      server: { expired: true, expiryDate: "2020-01-01", daysUntilExpiry: -9 },
    }));
    const metrics = registry.scrape();
    const samples = (name: string) => metrics.find((metric) => metric.name === name)?.samples;

    expect(samples("steward_license_access_total")).toEqual([
      { labels: { license_type: "professional" }, value: 50 },
      { labels: { license_type: "professional", tenant: "acme-eu" }, value: 200 },
      { labels: { license_type: "analyzer_time", tenant: "acme-eu" }, value: 300 },
    ]);
    expect(samples("steward_license_access_overage")).toEqual([
      { labels: { license_type: "analyzer_time", tenant: "acme-eu" }, value: -1 },
    ]);
    // The server licence gauges are the site's: the expiry rules read them as its licence.
    expect(samples("steward_license_server_days_until_expiry")).toEqual([{ labels: {}, value: 40 }]);
    expect(samples("steward_license_server_expired")).toEqual([{ labels: {}, value: 0 }]);
  });
});
