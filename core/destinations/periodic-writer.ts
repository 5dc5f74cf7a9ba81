/**
 * Writes interval counters to the time-series database (event counts, rejected counts, queue
 * metrics): every `intervalMs`, takes the points of every source and writes them in one request.
 * Each source's `written()` is called only once the database accepted the request, so a failed
 * write loses nothing: the source carries its deltas into the next interval. Failures are logged
 * at most once a minute (with how many there were) and counted. The next interval starts when a
 * write has finished, so writes never overlap. `stop()` writes a last time, within
 * `stopTimeoutMs`.
 */

import { createLogThrottle } from "../logging/log-throttle.ts";
import type { Clock, Logger, Service, TimerHandle, TimeseriesWriter } from "../ports.ts";
import type { PeriodicPoints } from "../udp/event-sinks.ts";
import { describeError } from "./describe-error.ts";

export interface PeriodicWriterOptions {
  /** Names the writer in logs, e.g. "user-events-queue-metrics". */
  name: string;
  intervalMs: number;
  sources: readonly PeriodicPoints[];
  series: TimeseriesWriter;
  clock: Clock;
  logger: Logger;
  /** Longest wait for the last write on stop (default 5000 ms). */
  stopTimeoutMs?: number | undefined;
}

export interface PeriodicWriterStats {
  /** Requests the database accepted. */
  writes: number;
  failedWrites: number;
}

export interface PeriodicWriter extends Service {
  stats(): PeriodicWriterStats;
}

export function startPeriodicWriter(options: PeriodicWriterOptions): PeriodicWriter {
  const { name, clock, logger, series, sources } = options;
  const throttle = createLogThrottle();
  const stats: PeriodicWriterStats = { writes: 0, failedWrites: 0 };
  let timer: TimerHandle | undefined;
  let stopped: Promise<void> | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  async function writeOnce(): Promise<void> {
    const now = clock.now();
    const taken = sources.map((source) => source.take(now));
    const points = taken.flatMap((take) => take.points);
    try {
      if (points.length > 0) await series.write(points);
    } catch (error) {
      stats.failedWrites += 1;
      const failures = throttle.admit(name, clock.now());
      if (failures !== undefined) {
        logger.error("writing interval counters failed; the next write carries them", {
          writer: name,
          points: points.length,
          failures,
          error: describeError(error),
        });
      }
      return;
    }
    if (points.length > 0) stats.writes += 1;
    for (const take of taken) take.written();
  }

  function tick(): void {
    timer = undefined;
    if (stopped !== undefined) return;
    inFlight = inFlight.then(writeOnce).finally(() => {
      if (stopped === undefined) timer = clock.setTimeout(tick, options.intervalMs);
    });
  }
  timer = clock.setTimeout(tick, options.intervalMs);

  async function lastWrite(): Promise<void> {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    await inFlight;
    let deadline: TimerHandle | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      deadline = clock.setTimeout(() => resolve(true), options.stopTimeoutMs ?? 5000);
    });
    const gaveUp = await Promise.race([writeOnce().then(() => false), timedOut]);
    clock.clearTimeout(deadline);
    if (gaveUp) {
      logger.error("the last write of interval counters did not finish before shutdown", { writer: name });
    }
  }

  return {
    stats: () => ({ ...stats }),
    stop() {
      stopped ??= lastWrite();
      return stopped;
    },
  };
}
