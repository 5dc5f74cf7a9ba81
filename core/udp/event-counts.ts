/**
 * Event counts: every datagram whose marker is recognised is counted by (event type, source, host,
 * subsystem) before exclusion, the performance filter and categorisation; an unrecognised marker
 * counts as `unknown` ×3. The interval counts are deltas written to
 * `platformEvents.eventCount.timeseriesdb.measurementName` and kept only while `eventCount.enable`
 * is true; `take`'s `written()` subtracts what was written, so counts that arrive during a write
 * are kept for the next one. Totals since start (by event type and source) are always kept and
 * published as `steward_events_total`. One instance serves both pipelines: the metric is declared
 * once. The field `counter` has the type Butler SOS gave it on each database version
 * (schemaless-count.ts: a float on 1.x, an integer on 2.x and 3.x), so that a database it wrote
 * accepts these points.
 */
import type { PlatformEventsConfig, TimeseriesdbVersion } from "../config/index.ts";
import { SCHEMALESS_COUNT } from "../destinations/schemaless-count.ts";
import type { MetricsRegistry } from "../ports.ts";
import type { PeriodicPoints } from "../shared/periodic-points.ts";
import { takeIntervalCounts } from "./interval-counts.ts";

export type EventType = "log" | "user";

/** Stands for a source, host or subsystem that is empty or not known. */
export const UNKNOWN = "unknown";

/**
 * Distinct (type, source, host, subsystem) keys kept per interval. Hosts and subsystems come from
 * the network; past this many, new keys are counted under host and subsystem `overflow`.
 */
export const MAX_INTERVAL_KEYS = 10_000;

export interface EventCounts extends PeriodicPoints {
  record(eventType: EventType, source: string, host: string, subsystem: string): void;
  /** Events since start by `<event type>.<source>` (e.g. `log.engine`; the status page). */
  totals(): Record<string, number>;
}

export interface EventCountsOptions {
  readonly platformEvents: PlatformEventsConfig;
  /** `timeseriesdbConfig.version`: decides the type of the `counter` field. */
  readonly version: TimeseriesdbVersion;
  /** Where `steward_events_total` is declared; absent in tests that do not scrape. */
  readonly metrics?: MetricsRegistry;
}

interface IntervalCount {
  readonly eventType: EventType;
  readonly source: string;
  readonly host: string;
  readonly subsystem: string;
  count: number;
}

interface Total {
  readonly eventType: EventType;
  readonly source: string;
  count: number;
}

const orUnknown = (value: string) => (value === "" ? UNKNOWN : value);

export function createEventCounts(options: EventCountsOptions): EventCounts {
  const { eventCount } = options.platformEvents;
  const measurement = eventCount.timeseriesdb.measurementName;
  const staticTags = eventCount.timeseriesdb.tags;
  const counterField = SCHEMALESS_COUNT[options.version];
  const interval = new Map<string, IntervalCount>();
  const totals = new Map<string, Total>();

  options.metrics?.counter({
    name: "steward_events_total",
    help: "UDP user and log events received with a recognised marker (unknown markers as source unknown)",
    labelNames: ["event_type", "source"],
    *collect() {
      for (const total of totals.values()) {
        yield { labels: { event_type: total.eventType, source: total.source }, value: total.count };
      }
    },
  });

  function countInterval(eventType: EventType, source: string, rawHost: string, rawSubsystem: string) {
    let host = orUnknown(rawHost);
    let subsystem = orUnknown(rawSubsystem);
    // Fields cannot hold control characters after sanitising, so U+0001 never occurs in them.
    let key = `${eventType}\u0001${source}\u0001${host}\u0001${subsystem}`;
    let entry = interval.get(key);
    if (entry === undefined && interval.size >= MAX_INTERVAL_KEYS) {
      host = "overflow";
      subsystem = "overflow";
      key = `${eventType}\u0001${source}\u0001${host}\u0001${subsystem}`;
      entry = interval.get(key);
    }
    if (entry === undefined) interval.set(key, { eventType, source, host, subsystem, count: 1 });
    else entry.count++;
  }

  return {
    totals: () =>
      Object.fromEntries(
        [...totals.values()].map((total) => [`${total.eventType}.${total.source}`, total.count]),
      ),
    record(eventType, rawSource, host, subsystem) {
      const source = orUnknown(rawSource);
      const totalKey = `${eventType}\u0001${source}`;
      const total = totals.get(totalKey);
      if (total === undefined) totals.set(totalKey, { eventType, source, count: 1 });
      else total.count++;
      if (eventCount.enable) countInterval(eventType, source, host, subsystem);
    },

    take(nowMs) {
      return takeIntervalCounts(interval, {
        counts: ["count"],
        toPoint(entry, taken) {
          const tags: Record<string, string> = {};
          for (const tag of staticTags) tags[tag.name] = tag.value;
          tags.event_type = entry.eventType;
          tags.source = entry.source;
          tags.host = entry.host;
          tags.subsystem = entry.subsystem;
          return { measurement, tags, fields: { counter: counterField(taken.count) }, timestampMs: nowMs };
        },
      });
    },
  };
}
