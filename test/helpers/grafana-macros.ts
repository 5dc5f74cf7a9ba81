/**
 * What Grafana does to a dashboard query before its data source sees it, for tests that execute
 * the shipped queries against real servers:
 *
 * - `$timeFilter` (InfluxQL) becomes `time >= <from>ms and time <= <to>ms`;
 * - `$__interval` becomes the time range divided by the panel's data points, rounded up to one of
 *   Grafana's steps and never below the minimum interval (the data source's scrape interval);
 * - `$__rate_interval` (PromQL) becomes the larger of `$__interval` plus one scrape interval and
 *   four scrape intervals;
 * - a template variable becomes its value: "All" the variable's `allValue`, one value the value
 *   regex-escaped, several values `(a|b)` (Grafana escapes values for the regular-expression
 *   matches every dashboard query uses for them).
 */

export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/** A variable's selection: `"$__all"`, or the chosen values. */
export type VariableSelection = "$__all" | readonly string[];

export interface ExpandOptions {
  range: TimeRange;
  /** Smallest interval the data source allows (InfluxDB's and Prometheus's: the scrape interval). */
  minIntervalMs: number;
  /** The panel's data points (Grafana: about its width in pixels). */
  maxDataPoints?: number;
  variables: Readonly<Record<string, { selection: VariableSelection; allValue: string }>>;
}

const STEPS_MS = [
  1, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000, 300_000,
  600_000, 900_000, 1_200_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000,
  86_400_000,
];

/** Grafana's interval for the range, in ms. */
export function intervalMs(
  options: Pick<ExpandOptions, "range" | "minIntervalMs" | "maxDataPoints">,
): number {
  const raw = (options.range.toMs - options.range.fromMs) / (options.maxDataPoints ?? 1000);
  const step = STEPS_MS.find((candidate) => candidate >= raw) ?? (STEPS_MS.at(-1) as number);
  return Math.max(step, options.minIntervalMs);
}

/** `1500` → `1500ms`, `60000` → `1m`: the duration text both query languages accept. */
export function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}

const escapeRegex = (value: string) => value.replace(/[\\^$*+?.()|[\]{}/]/g, "\\$&");

function variableValue(selection: VariableSelection, allValue: string): string {
  if (selection === "$__all") return allValue;
  const escaped = selection.map(escapeRegex);
  return escaped.length === 1 ? (escaped[0] as string) : `(${escaped.join("|")})`;
}

export function expandMacros(query: string, options: ExpandOptions): string {
  const interval = intervalMs(options);
  const rateInterval = Math.max(interval + options.minIntervalMs, 4 * options.minIntervalMs);
  let expanded = query
    .replaceAll("$timeFilter", `time >= ${options.range.fromMs}ms and time <= ${options.range.toMs}ms`)
    .replaceAll("$__rate_interval", durationText(rateInterval))
    .replaceAll("$__interval", durationText(interval));
  // Longest names first, so that `$app` cannot replace the start of `$application`.
  const names = Object.keys(options.variables).sort((a, b) => b.length - a.length);
  for (const name of names) {
    const variable = options.variables[name] as { selection: VariableSelection; allValue: string };
    expanded = expanded.replaceAll(`$${name}`, variableValue(variable.selection, variable.allValue));
  }
  const left = /\$\w+/.exec(expanded);
  if (left !== null) {
    throw new Error(`unexpanded ${left[0]} in: ${expanded}`);
  }
  return expanded;
}
