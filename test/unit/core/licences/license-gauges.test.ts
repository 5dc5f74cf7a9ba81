import { describe, expect, it } from "vitest";
import { declareLicenceGauges, type LicenceReadings } from "../../../../core/licences/license-gauges.ts";
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
