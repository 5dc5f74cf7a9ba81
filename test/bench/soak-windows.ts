/**
 * The soak's figures per window and the growth of a figure over the run's second half.
 *
 * Growth: the run is cut into equal windows; of the windows of the second half, the median of the
 * last three is compared with the median of the first three: growth = last / first − 1. Medians
 * of three, so that one noisy window at either end (a neighbour's burst on a shared machine, a
 * full garbage collection) moves neither; comparing the two ends of the second half, so that the
 * warm-up of the first half (heap growing to its working size, JIT, the capacity run's backlog)
 * does not count as growth.
 */
import { median } from "./order-statistics.ts";

export interface WindowFigures {
  index: number;
  /** Seconds from the start of the load to the end of the window. */
  endS: number;
  issued: number;
  answered: number;
  /** Answers other than 202, and requests that got no answer. */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Median and highest VmRSS sampled in the window. */
  rssMb: number;
  rssMaxMb: number;
  /**
   * CPU used over the window, in % of one core: by Steward, by influxd, by the benchmark's own
   * process (the client), and by everything else on the machine.
   */
  cpuPct: { steward: number; influxd: number; client: number; other: number };
  /** Size of the log directory (segments, zero-filled ahead, cursors) at its largest in the window. */
  logMb: number;
  /** Accepted events not yet handed to every destination, at the end of the window. */
  backlog: number;
  /** The machine's 1-minute load average at the end of the window. */
  load1: number;
}

export interface Growth {
  /** Median of the first three windows of the second half, and of the last three. */
  first: number;
  last: number;
  /** last / first − 1. */
  growth: number;
}

export function growthOverSecondHalf(values: readonly number[]): Growth {
  const half = values.slice(Math.floor(values.length / 2));
  const span = Math.max(1, Math.min(3, Math.floor(half.length / 2)));
  const first = median(half.slice(0, span));
  const last = median(half.slice(-span));
  return { first, last, growth: first > 0 ? last / first - 1 : 0 };
}

const COLUMNS: ReadonlyArray<readonly [title: string, value: (w: WindowFigures) => string]> = [
  ["window", (w) => String(w.index + 1)],
  ["end s", (w) => w.endS.toFixed(0)],
  ["issued", (w) => String(w.issued)],
  ["failed", (w) => String(w.failed)],
  ["p50 ms", (w) => w.p50Ms.toFixed(2)],
  ["p99 ms", (w) => w.p99Ms.toFixed(2)],
  ["max ms", (w) => w.maxMs.toFixed(1)],
  ["RSS MB", (w) => w.rssMb.toFixed(1)],
  ["RSS max", (w) => w.rssMaxMb.toFixed(1)],
  ["CPU % Steward", (w) => w.cpuPct.steward.toFixed(0)],
  ["influxd", (w) => w.cpuPct.influxd.toFixed(0)],
  ["client", (w) => w.cpuPct.client.toFixed(0)],
  ["other", (w) => w.cpuPct.other.toFixed(0)],
  ["log MB", (w) => w.logMb.toFixed(1)],
  ["backlog", (w) => String(w.backlog)],
  ["load", (w) => w.load1.toFixed(2)],
];

export function windowTable(windows: readonly WindowFigures[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...windows.map((w) => COLUMNS.map(([, value]) => value(w)))];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  return rows
    .map((row) => `  ${row.map((cell, column) => cell.padStart(widths[column] as number)).join("  ")}`)
    .join("\n");
}
