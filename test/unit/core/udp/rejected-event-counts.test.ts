import { describe, expect, it } from "vitest";
import { floatField, integerField } from "../../../../core/shared/line-protocol.ts";
import { createRejectedEventCounts, type RejectedEvent } from "../../../../core/udp/rejected-event-counts.ts";
import { logEventsConfig, PERF_APP_ID, platformEventsConfig } from "./udp-fixtures.ts";

const NOW = Date.UTC(2026, 0, 1);

const rejected = (overrides: Partial<RejectedEvent> = {}): RejectedEvent => ({
  source: "qseow-qix-perf",
  app_id: PERF_APP_ID,
  app_name: "Sales",
  method: "Doc::GetAppLayout",
  object_type: "barchart",
  process_time: 1.5,
  ...overrides,
});

const countsWith = (
  rejectedEnable: boolean,
  trackEnable: boolean,
  tags: unknown[] = [],
  version: 1 | 2 | 3 = 3,
) =>
  createRejectedEventCounts({
    version,
    platformEvents: platformEventsConfig({ rejectedEventCount: { enable: rejectedEnable } }),
    trackRejectedEvents: logEventsConfig({
      enginePerformanceMonitor: { trackRejectedEvents: { enable: trackEnable, tags } },
    }).enginePerformanceMonitor.trackRejectedEvents,
  });

describe("createRejectedEventCounts", () => {
  it("counts rejected events by source, app, method and object type with summed process time", () => {
    const counts = countsWith(true, true, [{ name: "env", value: "prod" }]);

    counts.record(rejected());
    counts.record(rejected({ process_time: 2.25 }));
    counts.record(rejected({ method: "Global::OpenApp", app_name: "", process_time: undefined }));

    expect(counts.take(NOW).points).toEqual([
      {
        measurement: "rejected_event_count",
        tags: {
          env: "prod",
          source: "qseow-qix-perf",
          app_id: PERF_APP_ID,
          method: "Doc::GetAppLayout",
          object_type: "barchart",
          app_name: "Sales",
          app_name_set: "true",
        },
        fields: { counter: integerField(2), process_time: floatField(3.75) },
        timestampMs: NOW,
      },
      {
        measurement: "rejected_event_count",
        tags: {
          env: "prod",
          source: "qseow-qix-perf",
          app_id: PERF_APP_ID,
          method: "Global::OpenApp",
          object_type: "barchart",
          app_name_set: "false",
        },
        fields: { counter: integerField(1), process_time: floatField(0) },
        timestampMs: NOW,
      },
    ]);
  });

  it("types counter as Butler SOS did (a float on InfluxDB 1.x, an integer on 2.x and 3.x) and process_time as a float", () => {
    const fieldsOn = (version: 1 | 2 | 3) => {
      const counts = countsWith(true, true, [], version);
      counts.record(rejected());
      return counts.take(NOW).points[0]?.fields;
    };

    expect(fieldsOn(1)).toEqual({ counter: floatField(1), process_time: floatField(1.5) });
    expect(fieldsOn(2)).toEqual({ counter: integerField(1), process_time: floatField(1.5) });
    expect(fieldsOn(3)).toEqual({ counter: integerField(1), process_time: floatField(1.5) });
  });

  it("uses the configured measurement name", () => {
    const counts = createRejectedEventCounts({
      version: 3,
      platformEvents: platformEventsConfig({
        rejectedEventCount: { enable: true, timeseriesdb: { measurementName: "perf_rejects" } },
      }),
      trackRejectedEvents: { enable: true, tags: [] },
    });

    counts.record(rejected());

    expect(counts.take(NOW).points[0]?.measurement).toBe("perf_rejects");
  });

  it.each([
    [false, true],
    [true, false],
  ])("keeps nothing unless both rejectedEventCount (%s) and trackRejectedEvents (%s) are on", (a, b) => {
    const counts = countsWith(a, b);

    counts.record(rejected());

    expect(counts.take(NOW).points).toEqual([]);
  });

  it("resets only what a take carried once written() is called", () => {
    const counts = countsWith(true, true);
    counts.record(rejected());
    const first = counts.take(NOW);
    counts.record(rejected({ process_time: 4 }));

    first.written();

    expect(counts.take(NOW).points.map((p) => p.fields)).toEqual([
      { counter: integerField(1), process_time: floatField(4) },
    ]);
  });

  it("carries an unwritten interval into the next take", () => {
    const counts = countsWith(true, true);
    counts.record(rejected());
    counts.take(NOW);
    counts.record(rejected());

    expect(counts.take(NOW).points.map((p) => p.fields.counter)).toEqual([integerField(2)]);
  });
});
