/**
 * Writes interval counters to the time-series database (event counts, rejected counts, queue
 * metrics): every `intervalMs`, takes the points of every source and writes them in one request,
 * on the write path every time-series writer shares (write-within-size-limit.ts), into a database
 * made sure to exist first (database-ensuring-series.ts: before the first write and after a 404,
 * once for every writer sharing the TimeseriesClient). The next interval starts when a write has
 * finished, so writes never overlap.
 * - An outage (no answer, 5xx, 401/403/404/408/429): each source's `written()` is not called, so
 *   nothing is lost: the source carries its deltas into the next interval. Failures are logged at
 *   most once a minute (with how many there were) and counted.
 * - Points the database refuses (a field type conflict, beyond retention, unparsable, too large,
 *   or not encodable as line protocol): a refusal is not an outage. What it stored counts as
 *   written, and so do the refused deltas: carried into the next interval they would be refused
 *   again, every interval, for good. The refused points are counted by reason and logged at ERROR
 *   with the first refused line, at most once a minute per reason (refusal-tally.ts).
 * `stop()` writes a last time after the write in flight; the two together take at most
 * `stopTimeoutMs`, and `abandon()` (the shutdown's deadline) ends them at once. Either way what
 * was not written is lost, said in one ERROR with the number of points.
 */

import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger, Stoppable, TimerHandle, TimeseriesClient } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { checkPoint, encodePoint, type Point } from "../shared/line-protocol.ts";
import type { PeriodicPoints } from "../shared/periodic-points.ts";
import { ensuringDatabase } from "./database-ensuring-series.ts";
import type { DestinationStats } from "./destination-stats.ts";
import { createRefusalTally, type LastRefusal } from "./refusal-tally.ts";
import type { TimeseriesRefusal } from "./timeseries-refusal.ts";
import { writeWithinSizeLimit } from "./write-within-size-limit.ts";

export interface PeriodicWriterOptions {
  /** Names the writer in logs, e.g. "user_events-queue-metrics". */
  name: string;
  intervalMs: number;
  sources: readonly PeriodicPoints[];
  series: TimeseriesClient;
  clock: Clock;
  logger: Logger;
  /** Longest wait for the write in flight and the last write on stop (default 5000 ms). */
  stopTimeoutMs?: number | undefined;
}

export interface PeriodicWriterStats {
  /** Requests the database accepted. */
  writes: number;
  failedWrites: number;
  /** Points the database refused (or that could not be encoded); absent until the first. */
  rejected?: number;
  /** `rejected` by reason; absent until the first refusal. */
  refused?: Readonly<Record<string, number>>;
  lastRefusal?: LastRefusal;
}

export interface PeriodicWriter extends Stoppable {
  stats(): PeriodicWriterStats;
  /** Gives up at once (the shutdown's deadline): no more writes, and stop() waits for none. */
  abandon(): void;
}

const PREVIEW_CHARS = 120;

export function startPeriodicWriter(options: PeriodicWriterOptions): PeriodicWriter {
  const { name, clock, logger, sources } = options;
  const series = ensuringDatabase(options.series, { logger });
  const throttle = createLogThrottle();
  const stats = { writes: 0, failedWrites: 0 };
  const refusals = createRefusalTally({
    logger,
    message: "destination refused interval counters; not written there, not retried",
    fields: { writer: name, destination: "timeseriesdb" },
  });
  let timer: TimerHandle | undefined;
  let stopped: Promise<void> | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  /** Points of the write in flight (or the last one): what a shutdown that gives up loses. */
  let pendingPoints = 0;
  let closed = false;
  let settleAbandonment: () => void = () => undefined;
  const abandonment = new Promise<void>((resolve) => {
    settleAbandonment = resolve;
  });

  /** One write of every source's points; `last`: the shutdown's, which no next write follows. */
  async function writeOnce(last = false): Promise<void> {
    if (closed) return;
    const now = clock.now();
    const taken = sources.map((source) => source.take(now));
    const points = taken.flatMap((take) => take.points);
    pendingPoints = points.length;
    const { encodable, unencodable } = checked(points);
    let refused: TimeseriesRefusal[] = [];
    try {
      if (encodable.length > 0) {
        refused = await writeWithinSizeLimit(encodable.length, (indices) =>
          series.write(indices === undefined ? encodable : indices.map((i) => encodable[i] as Point)),
        );
      }
    } catch (error) {
      stats.failedWrites += 1;
      // After a shutdown gave up on this write (closed), its points were already named as lost:
      // no next write carries them, so saying so again would be wrong as well as repeated.
      const failures = last || closed ? undefined : throttle.admit(name, clock.now());
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
    pendingPoints = 0;
    if (encodable.length > 0) stats.writes += 1;
    for (const take of taken) take.written();
    for (const refusal of refused) {
      const first = encodable[refusal.lines[0] ?? 0];
      const preview = first === undefined ? "" : previewOf(first);
      refusals.note({ ...refusal, fields: { points: refusal.count, preview } }, clock.now());
    }
    if (unencodable.length > 0) {
      const [point, error] = unencodable[0] as [Point, unknown];
      const fields = { points: unencodable.length, measurement: point.measurement };
      const detail = describeError(error);
      refusals.note({ reason: "unencodable", count: unencodable.length, detail, fields }, clock.now());
    }
  }

  function tick(): void {
    timer = undefined;
    if (stopped !== undefined || closed) return;
    inFlight = inFlight
      .then(() => writeOnce())
      .finally(() => {
        if (stopped === undefined && !closed) timer = clock.setTimeout(tick, options.intervalMs);
      });
  }
  timer = clock.setTimeout(tick, options.intervalMs);

  function abandon(): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    closed = true;
    settleAbandonment();
  }

  /** The write in flight, then a last one, both within stopTimeoutMs and never past abandon(). */
  async function lastWrite(): Promise<void> {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    let deadline: TimerHandle | undefined;
    const gaveUp = new Promise<boolean>((resolve) => {
      deadline = clock.setTimeout(() => resolve(true), options.stopTimeoutMs ?? 5000);
      void abandonment.then(() => resolve(true));
    });
    const done = inFlight.then(() => writeOnce(true)).then(() => false);
    const abandoned = closed || (await Promise.race([done, gaveUp]));
    clock.clearTimeout(deadline);
    closed = true;
    // A write in flight holds the points that were lost; otherwise the last write would have
    // taken them (take() without written() changes nothing).
    const lost = abandoned && pendingPoints === 0 ? pointsHeld() : pendingPoints;
    if (lost > 0) {
      logger.error("interval counters not written before shutdown; lost", { writer: name, points: lost });
    }
  }

  function pointsHeld(): number {
    const now = clock.now();
    return sources.reduce((sum, source) => sum + source.take(now).points.length, 0);
  }

  return {
    stats() {
      const counts = refusals.counts();
      return counts.lastRefusal === undefined ? { ...stats } : { ...stats, ...counts };
    },
    abandon,
    stop() {
      stopped ??= lastWrite();
      return stopped;
    },
  };
}

/**
 * The writer as one destination on the status page and in the destination metrics: `written`
 * counts its requests (one per interval), `rejected` the points the database refused.
 */
export function periodicWriterDestinationStats(stats: PeriodicWriterStats): DestinationStats {
  return {
    buffered: 0,
    written: stats.writes,
    failedWrites: stats.failedWrites,
    dropped: 0,
    rejected: stats.rejected ?? 0,
    ...(stats.lastRefusal === undefined ? {} : { refused: stats.refused, lastRefusal: stats.lastRefusal }),
  };
}

/** The start of the point's line for the log; a point refused as unencodable has none. */
function previewOf(point: Point): string {
  try {
    return encodePoint(point).slice(0, PREVIEW_CHARS);
  } catch {
    return `${point.measurement} (cannot be written as line protocol)`.slice(0, PREVIEW_CHARS);
  }
}

/** The points that can be encoded as line protocol, and the others with why not. */
function checked(points: readonly Point[]): { encodable: Point[]; unencodable: [Point, unknown][] } {
  const encodable: Point[] = [];
  const unencodable: [Point, unknown][] = [];
  for (const point of points) {
    try {
      checkPoint(point);
      encodable.push(point);
    } catch (error) {
      unencodable.push([point, error]);
    }
  }
  return { encodable, unencodable };
}
