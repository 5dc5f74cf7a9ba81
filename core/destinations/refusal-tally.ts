/**
 * What a destination refused as data, counted and logged the same way by every writer (the item
 * batcher behind the audit destinations and the agent's destinations, the periodic writers of interval
 * counters, the cloud consumer): the count by reason, the latest refusal for the status page, and
 * an ERROR naming the destination, the reason and the first refused items, at most one line a
 * minute per reason (the first at once, then with the count since the previous line; the others
 * at DEBUG, each with its own count). A refusal is never retried, so this is all that is left of
 * the refused items: they are kept nowhere else.
 */
import { createLogThrottle } from "../logging/index.ts";
import type { LogFields, Logger } from "../ports.ts";

/** One refusal: why, how many items, the destination's words, log fields naming the first items. */
export interface NotedRefusal {
  readonly reason: string;
  readonly count: number;
  readonly detail: string;
  readonly fields: LogFields;
}

/** The latest refusal of a destination, as the status page shows it. */
export interface LastRefusal {
  readonly reason: string;
  /** ISO time. */
  readonly at: string;
  readonly detail: string;
}

export interface RefusalCounts {
  /** Items refused, all reasons. */
  rejected: number;
  /** `rejected` by reason; absent until the first refusal. */
  refused?: Readonly<Record<string, number>>;
  /** Absent until the first refusal. */
  lastRefusal?: LastRefusal;
}

export interface RefusalTally {
  /** Counts and logs a refusal at `nowMs`. */
  note(refusal: NotedRefusal, nowMs: number): void;
  counts(): RefusalCounts;
}

export interface RefusalTallyOptions {
  logger: Logger;
  /** The log line, e.g. "destination refused points; not written there, not retried". */
  message: string;
  /** Fields every line carries first, e.g. `{ destination: "timeseriesdb" }`. */
  fields: LogFields;
}

export function createRefusalTally(options: RefusalTallyOptions): RefusalTally {
  const { logger, message } = options;
  const throttle = createLogThrottle();
  const refused: Record<string, number> = {};
  let rejected = 0;
  let lastRefusal: LastRefusal | undefined;

  return {
    note(refusal, nowMs) {
      rejected += refusal.count;
      refused[refusal.reason] = (refused[refusal.reason] ?? 0) + refusal.count;
      lastRefusal = { reason: refusal.reason, at: new Date(nowMs).toISOString(), detail: refusal.detail };
      const since = throttle.admit(refusal.reason, nowMs, refusal.count);
      const fields = {
        ...options.fields,
        reason: refusal.reason,
        refused: since ?? refusal.count,
        ...refusal.fields,
        detail: refusal.detail,
      };
      if (since === undefined) logger.debug(message, fields);
      else logger.error(message, fields);
    },
    counts: () => ({
      rejected,
      ...(lastRefusal === undefined ? {} : { refused: { ...refused }, lastRefusal }),
    }),
  };
}
