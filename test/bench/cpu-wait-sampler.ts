/**
 * Where a slow answer's time went, on Linux: every few milliseconds this process notes how long
 * the main thread of a watched process (Steward) has run and waited for a CPU so far, how long all
 * its threads have run, how long its own main thread has waited (the times the kernel counts in
 * /proc/<pid>/schedstat: on a CPU, then in the run queue) and how late its own timer fired (its
 * event loop busy, or waiting for a CPU). For a span of time it then tells how long Steward ran
 * and each waited for a CPU within it, and how late this process's loop ran: an answer that was
 * slow while Steward waited for a CPU was slowed by the machine; while Steward ran, by Steward's
 * own work (its code, its collector); while neither, by something Steward waited for (a disk).
 * Off Linux (no /proc) the times read as 0.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface SpanWaits {
  /** The watched process's main thread ran this long, ms. */
  readonly watchedRanMs: number;
  /** All its threads together (the collector's and the compiler's helpers, the I/O pool) ran this long, ms. */
  readonly watchedThreadsRanMs: number;
  /** The watched process's main thread waited this long for a CPU, ms. */
  readonly watchedMs: number;
  /** This process's main thread waited this long for a CPU, ms. */
  readonly selfMs: number;
  /** This process's timer fired at most this late, ms. */
  readonly lateMs: number;
}

export interface CpuWaitSampler {
  /** What happened between two `performance.now()` times. */
  within(startMs: number, endMs: number): SpanWaits;
  stop(): void;
}

interface Sample {
  readonly at: number;
  readonly watchedRanNs: number;
  readonly watchedThreadsRanNs: number;
  readonly watchedNs: number;
  readonly selfNs: number;
  readonly lateMs: number;
}

/** Nanoseconds on a CPU and in the run queue of `pid`'s main thread so far. */
function schedstat(pid: number | "self" | string): [number, number] {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return [ran ?? 0, waited ?? 0];
  } catch {
    return [0, 0];
  }
}

/** The ids of `pid`'s threads; none once it is gone. */
function threads(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

export function startCpuWaitSampler(pid: number, everyMs = 5): CpuWaitSampler {
  const samples: Sample[] = [];
  const take = (lateMs: number) => {
    const [watchedRanNs, watchedNs] = schedstat(pid);
    const watchedThreadsRanNs = threads(pid).reduce(
      (sum, tid) => sum + schedstat(`${pid}/task/${tid}`)[0],
      0,
    );
    samples.push({
      at: performance.now(),
      watchedRanNs,
      watchedThreadsRanNs,
      watchedNs,
      selfNs: schedstat("self")[1],
      lateMs,
    });
  };
  take(0);
  let due = performance.now() + everyMs;
  const timer = setInterval(() => {
    const now = performance.now();
    take(Math.max(0, now - due));
    due = now + everyMs;
  }, everyMs);
  return {
    within(startMs, endMs) {
      // The samples just before the start and just after the end bound the span.
      const first = samples.findLastIndex((sample) => sample.at <= startMs);
      const after = samples.findIndex((sample) => sample.at >= endMs);
      const from = samples[Math.max(0, first)] as Sample;
      const to = samples[after === -1 ? samples.length - 1 : after] as Sample;
      const inside = samples.slice(Math.max(0, first) + 1, (after === -1 ? samples.length - 1 : after) + 1);
      return {
        watchedRanMs: (to.watchedRanNs - from.watchedRanNs) / 1e6,
        watchedThreadsRanMs: (to.watchedThreadsRanNs - from.watchedThreadsRanNs) / 1e6,
        watchedMs: (to.watchedNs - from.watchedNs) / 1e6,
        selfMs: (to.selfNs - from.selfNs) / 1e6,
        lateMs: Math.max(0, ...inside.map((sample) => sample.lateMs)),
      };
    },
    stop: () => clearInterval(timer),
  };
}
