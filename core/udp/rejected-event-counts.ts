/**
 * Counts of engine performance events the monitor rejected, by (source, app id, app name, method,
 * object type) with the number of events and their summed `process_time`. Kept only while both
 * `platformEvents.rejectedEventCount.enable` and
 * `logEvents.enginePerformanceMonitor.trackRejectedEvents.enable` are true — each gated on its own
 * flags, not on the event counts' (Butler SOS stored either only when both were on). Deltas as in
 * interval-counts.ts. `counter` has the type Butler SOS gave it on each database version
 * (schemaless-count.ts: a float on 1.x, an integer on 2.x and 3.x); `process_time` is a float on
 * every version.
 */
import type { LogEventsConfig, PlatformEventsConfig, TimeseriesdbVersion } from "../config/index.ts";
import { SCHEMALESS_COUNT } from "../destinations/schemaless-count.ts";
import { floatField } from "../shared/line-protocol.ts";
import type { PeriodicPoints } from "../shared/periodic-points.ts";
import { takeIntervalCounts } from "./interval-counts.ts";

export interface RejectedEvent {
  readonly source: string;
  readonly app_id: string;
  readonly app_name: string;
  readonly method: string;
  readonly object_type: string;
  /** Milliseconds; undefined (not a number on the wire) adds nothing to the sum. */
  readonly process_time: number | undefined;
}

export interface RejectedEventCounts extends PeriodicPoints {
  record(event: RejectedEvent): void;
}

export interface RejectedEventCountsOptions {
  readonly platformEvents: PlatformEventsConfig;
  readonly trackRejectedEvents: LogEventsConfig["enginePerformanceMonitor"]["trackRejectedEvents"];
  /** `timeseriesdbConfig.version`: decides the type of the `counter` field. */
  readonly version: TimeseriesdbVersion;
}

/** Distinct keys kept per interval; the rest are folded into one `overflow` row per source. */
export const MAX_REJECTED_KEYS = 10_000;

interface Row {
  readonly source: string;
  readonly app_id: string;
  readonly app_name: string;
  readonly method: string;
  readonly object_type: string;
  counter: number;
  processTime: number;
}

export function createRejectedEventCounts(options: RejectedEventCountsOptions): RejectedEventCounts {
  const enabled = options.platformEvents.rejectedEventCount.enable && options.trackRejectedEvents.enable;
  const measurement = options.platformEvents.rejectedEventCount.timeseriesdb.measurementName;
  const staticTags = options.trackRejectedEvents.tags;
  const counterField = SCHEMALESS_COUNT[options.version];
  const rows = new Map<string, Row>();

  return {
    record(event) {
      if (!enabled) return;
      let key = `${event.source}\u0001${event.app_id}\u0001${event.app_name}\u0001${event.method}\u0001${event.object_type}`;
      let row = rows.get(key);
      if (row === undefined && rows.size >= MAX_REJECTED_KEYS) {
        key = `${event.source}\u0001overflow`;
        row = rows.get(key);
        if (row === undefined) {
          row = {
            source: event.source,
            app_id: "",
            app_name: "",
            method: "overflow",
            object_type: "overflow",
            counter: 0,
            processTime: 0,
          };
          rows.set(key, row);
        }
      }
      if (row === undefined) {
        const { source, app_id, app_name, method, object_type } = event;
        row = { source, app_id, app_name, method, object_type, counter: 0, processTime: 0 };
        rows.set(key, row);
      }
      row.counter++;
      row.processTime += event.process_time ?? 0;
    },

    take(nowMs) {
      return takeIntervalCounts(rows, {
        counts: ["counter", "processTime"],
        toPoint(row, taken) {
          const tags: Record<string, string> = {};
          for (const tag of staticTags) tags[tag.name] = tag.value;
          tags.source = row.source;
          tags.app_id = row.app_id;
          tags.method = row.method;
          tags.object_type = row.object_type;
          if (row.app_name !== "") tags.app_name = row.app_name;
          tags.app_name_set = row.app_name === "" ? "false" : "true";
          return {
            measurement,
            tags,
            fields: { counter: counterField(taken.counter), process_time: floatField(taken.processTime) },
            timestampMs: nowMs,
          };
        },
      });
    },
  };
}
