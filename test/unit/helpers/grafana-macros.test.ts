import { describe, expect, it } from "vitest";
import { expandMacros, intervalMs } from "../../helpers/grafana-macros.ts";

const range = { fromMs: 1_700_000_000_000, toMs: 1_700_000_000_000 + 6 * 3_600_000 };
const variables = {
  environment: { selection: "$__all" as const, allValue: ".*" },
  server: { selection: ["qs-1", "a.b/c"], allValue: ".*" },
  app: { selection: ["Sales (2024)"], allValue: ".*" },
};

describe("expandMacros", () => {
  it("expands the time filter, the interval and each variable as Grafana does", () => {
    const query = `SELECT mean("total") FROM "cpu" WHERE $timeFilter AND "qs_env" =~ /^$environment$/ AND "server_name" =~ /^$server$/ AND "app_name" =~ /^$app$/ GROUP BY time($__interval)`;
    expect(expandMacros(query, { range, minIntervalMs: 1000, variables })).toBe(
      `SELECT mean("total") FROM "cpu" WHERE time >= 1700000000000ms and time <= 1700021600000ms AND "qs_env" =~ /^.*$/ AND "server_name" =~ /^(qs-1|a\\.b\\/c)$/ AND "app_name" =~ /^Sales \\(2024\\)$/ GROUP BY time(30s)`,
    );
  });

  it("makes $__rate_interval at least four scrape intervals, and the interval no finer than one", () => {
    const short = { fromMs: 0, toMs: 120_000 };
    expect(intervalMs({ range: short, minIntervalMs: 1000 })).toBe(1000);
    expect(
      expandMacros("rate(x[$__rate_interval])", { range: short, minIntervalMs: 1000, variables: {} }),
    ).toBe("rate(x[4s])");
  });

  it("refuses a query that still names a variable it does not know", () => {
    expect(() => expandMacros('up{a=~"$nothing"}', { range, minIntervalMs: 1000, variables: {} })).toThrow(
      /unexpanded \$nothing/,
    );
  });
});
