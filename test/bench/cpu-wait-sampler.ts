/**
 * Where a slow answer's time went, on Linux: every few milliseconds this process notes how long
 * the main thread of a watched process (Steward) and its own main thread have waited for a CPU so
 * far (the run-queue wait the kernel counts, second field of /proc/<pid>/schedstat) and how late
 * its own timer fired (its event loop busy, or waiting for a CPU). For a span of time it then
 * tells how long each waited for a CPU within it and how late this process's loop ran: an answer
 * that was slow while Steward waited for a CPU was slowed by the machine, not by Steward's work.
 * Off Linux (no /proc) the waits read as 0.
 */
import { readFileSync } from "node:fs";

export interface SpanWaits {
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
  readonly watchedNs: number;
  readonly selfNs: number;
  readonly lateMs: number;
}

function runQueueNs(pid: number | "self"): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1] ?? 0);
  } catch {
    return 0;
  }
}

export function startCpuWaitSampler(pid: number, everyMs = 5): CpuWaitSampler {
  const samples: Sample[] = [];
  const take = (lateMs: number) =>
    samples.push({ at: performance.now(), watchedNs: runQueueNs(pid), selfNs: runQueueNs("self"), lateMs });
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
        watchedMs: (to.watchedNs - from.watchedNs) / 1e6,
        selfMs: (to.selfNs - from.selfNs) / 1e6,
        lateMs: Math.max(0, ...inside.map((sample) => sample.lateMs)),
      };
    },
    stop: () => clearInterval(timer),
  };
}
