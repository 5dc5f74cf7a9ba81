/**
 * Error tracking of the agent: every failure the agent's parts report is counted per (type, server)
 * for the current UTC day.
 * - At midnight UTC the day's counts are logged once, at INFO, when `logSummary` is on (Butler SOS
 *   also logged the running summary after every single error; the daily line is enough), then the
 *   counts start again from zero.
 * - Each error becomes one point (`pointsOf`): measurement `measurementName`, tags `error_type`
 *   and `server_name`, fields `error_count` = 1, `error_category` and, when known, `error_code`
 *   and `http_status`; the two numbers typed as Butler SOS typed them on each database version
 *   (schemaless-count.ts: floats on 1.x, integers on 2.x and 3.x), so that the measurement it
 *   filled accepts them. A second error of one type and server in the same millisecond gets a
 *   point one nanosecond later (and so on): a point's identity is its series and time, and two
 *   points with both equal would be one in the database, losing an error from the count.
 *   The caller writes them through a destination of their
 *   own whose failures are never recorded here, so a time-series DB that is down never feeds
 *   errors about its own error points back in.
 * A tracker made with `enabled: false` is the null tracker: it records nothing.
 */
import type { TimeseriesdbVersion } from "../config/index.ts";
import { SCHEMALESS_COUNT } from "../destinations/schemaless-count.ts";
import type { Clock, ErrorRecorder, Logger, Stoppable, TimerHandle } from "../ports.ts";
import { type Point, stringField } from "../shared/line-protocol.ts";
import { categorizeError } from "./error-category.ts";

/** Counts of one error type: the total and per server (`''` for no server). */
export interface ErrorTypeCounts {
  total: number;
  servers: Record<string, number>;
}

export interface ErrorCounts {
  /** The UTC date the counts belong to, `YYYY-MM-DD`. */
  day: string;
  total: number;
  types: Record<string, ErrorTypeCounts>;
}

export interface ErrorTrackerOptions {
  /** `errorTracking.logSummary.enable`. */
  logSummary: boolean;
  /** `errorTracking.timeseriesdb.measurementName`. */
  measurementName: string;
  /** `timeseriesdbConfig.version`: decides the type of the numeric fields. */
  version: TimeseriesdbVersion;
  /** Receives the point of each error (absent: no points). Must not throw. */
  onPoint?: ((point: Point) => void) | undefined;
  clock: Clock;
  logger: Logger;
}

export interface ErrorTracker extends ErrorRecorder, Stoppable {
  counts(): ErrorCounts;
}

const DAY_MS = 86_400_000;
/** How a missing server is named in the summary (as Butler SOS names it). */
const NO_SERVER = "_no_server_context";

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const nullErrorTracker: ErrorTracker = {
  record: () => undefined,
  counts: () => ({ day: "", total: 0, types: {} }),
  stop: async () => undefined,
};

export function startErrorTracker(options: ErrorTrackerOptions): ErrorTracker {
  const { clock, logger } = options;
  const count = SCHEMALESS_COUNT[options.version];
  let counts: ErrorCounts = { day: utcDay(clock.now()), total: 0, types: {} };
  let timer: TimerHandle | undefined;
  /** Per series (type and server): the millisecond of its last point and the points in it so far. */
  const lastPoint = new Map<string, { ms: number; inMs: number }>();

  /** Nanoseconds after `now` that keep this point apart from the series' earlier ones in the same ms. */
  function offsetNs(type: string, server: string, now: number): number {
    const series = `${type}\u0001${server}`;
    const last = lastPoint.get(series);
    const inMs = last !== undefined && last.ms === now ? last.inMs + 1 : 0;
    lastPoint.set(series, { ms: now, inMs });
    return Math.min(inMs, 999_999);
  }

  function rollOver(now: number): void {
    const today = utcDay(now);
    if (today === counts.day) return;
    if (options.logSummary) logSummary(counts);
    counts = { day: today, total: 0, types: {} };
  }

  function logSummary(day: ErrorCounts): void {
    const details = Object.fromEntries(
      Object.entries(day.types).map(([type, entry]) => [
        type,
        {
          total: entry.total,
          servers: Object.fromEntries(
            Object.entries(entry.servers).map(([server, n]) => [server === "" ? NO_SERVER : server, n]),
          ),
        },
      ]),
    );
    logger.info(`error summary for ${day.day} (UTC): ${day.total} errors`, {
      day: day.day,
      total: day.total,
      details: JSON.stringify(details),
    });
  }

  function armMidnight(): void {
    const now = clock.now();
    const midnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    timer = clock.setTimeout(() => {
      rollOver(Math.max(clock.now(), midnight));
      armMidnight();
    }, midnight - now);
  }
  armMidnight();

  return {
    record(type, server, error) {
      const now = clock.now();
      rollOver(now);
      const entry = counts.types[type] ?? { total: 0, servers: {} };
      counts.types[type] = entry;
      entry.total += 1;
      entry.servers[server] = (entry.servers[server] ?? 0) + 1;
      counts.total += 1;
      if (options.onPoint === undefined) return;
      const facts = categorizeError(error);
      const subMsNs = offsetNs(type, server, now);
      options.onPoint({
        measurement: options.measurementName,
        tags: { error_type: type, server_name: server },
        fields: {
          error_count: count(1),
          error_category: stringField(facts.category),
          ...(facts.code === undefined ? {} : { error_code: stringField(facts.code) }),
          ...(facts.httpStatus === undefined ? {} : { http_status: count(facts.httpStatus) }),
        },
        timestampMs: now,
        ...(subMsNs === 0 ? {} : { subMsNs }),
      });
    },
    counts: () => structuredClone(counts),
    async stop() {
      clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}
