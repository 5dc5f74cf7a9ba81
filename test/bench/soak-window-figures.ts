/**
 * The soak's figures per window, from what the paced client measured in it (requests, answers,
 * latencies) and what was sampled meanwhile (Steward's VmRSS, the CPU of each process and of the
 * machine, the log directory's size), with the backlog and load average read at its end.
 */

import { median, nearestRank } from "./order-statistics.ts";
import type { LoadWindow } from "./soak-paced-load.ts";
import type { Sample } from "./soak-steward.ts";
import type { WindowFigures } from "./soak-windows.ts";

/** CPU used between two samples, in % of one core. */
function cpuBetween(from: Sample | undefined, to: Sample | undefined): WindowFigures["cpuPct"] {
  if (from === undefined || to === undefined || to.atMs <= from.atMs)
    return { steward: 0, influxd: 0, client: 0, other: 0 };
  const pct = (pick: (s: Sample) => number) => ((pick(to) - pick(from)) / (to.atMs - from.atMs)) * 100;
  const steward = pct((s) => s.stewardCpuMs);
  const influxd = pct((s) => s.influxdCpuMs);
  const client = pct((s) => s.clientCpuMs);
  const other = Math.max(0, pct((s) => s.machineBusyMs) - steward - influxd - client);
  return { steward, influxd, client, other };
}

export function windowFigures(
  load: LoadWindow[],
  samples: Sample[],
  extras: { backlog: number[]; load1: number[] },
  windowMs: number,
): WindowFigures[] {
  return load.map((window) => {
    const from = window.index * windowMs;
    const to = from + windowMs;
    const inside = samples.filter((s) => s.atMs >= from && s.atMs < to);
    const before = samples.filter((s) => s.atMs < from).at(-1) ?? samples[0];
    const rss = inside.map((s) => s.rssKb / 1024);
    let answered = 0;
    for (const [status, count] of window.statuses) if (status !== 0) answered += count;
    return {
      index: window.index,
      endS: to / 1000,
      issued: window.issued,
      answered,
      failed: window.issued - (window.statuses.get(202) ?? 0),
      // The window's latencies are in ascending order (soak-paced-load.ts); none reads 0.
      p50Ms: nearestRank(window.latenciesMs, 50) ?? 0,
      p99Ms: nearestRank(window.latenciesMs, 99) ?? 0,
      maxMs: window.latenciesMs.at(-1) ?? 0,
      rssMb: median(rss),
      rssMaxMb: Math.max(0, ...rss),
      cpuPct: cpuBetween(before, inside.at(-1)),
      logMb: Math.max(0, ...inside.map((s) => s.logBytes / 2 ** 20)),
      backlog: extras.backlog[window.index] ?? -1,
      load1: extras.load1[window.index] ?? 0,
    };
  });
}
