import { describe, expect, it } from "vitest";
import { floatField, integerField } from "../../../../core/shared/line-protocol.ts";
import { createEventCounts, MAX_INTERVAL_KEYS } from "../../../../core/udp/event-counts.ts";
import { platformEventsConfig, recordingRegistry } from "./udp-fixtures.ts";

const NOW = Date.UTC(2026, 0, 1);

const enabled = (extra: Record<string, unknown> = {}) =>
  platformEventsConfig({ eventCount: { enable: true, ...extra } });

describe("createEventCounts: the points written", () => {
  it("writes one point per (event type, source, host, subsystem) with its counter", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });

    counts.record("log", "qseow-engine", "host1", "sub1");
    counts.record("log", "qseow-engine", "host1", "sub1");
    counts.record("user", "qseow-proxy-session", "host2", "AppAccess");

    expect(counts.take(NOW).points).toEqual([
      {
        measurement: "event_count",
        tags: { event_type: "log", source: "qseow-engine", host: "host1", subsystem: "sub1" },
        fields: { counter: integerField(2) },
        timestampMs: NOW,
      },
      {
        measurement: "event_count",
        tags: { event_type: "user", source: "qseow-proxy-session", host: "host2", subsystem: "AppAccess" },
        fields: { counter: integerField(1) },
        timestampMs: NOW,
      },
    ]);
  });

  it("types counter as Butler SOS did: a float on InfluxDB 1.x (no schema in its client), an integer on 2.x and 3.x", () => {
    const counterOn = (version: 1 | 2 | 3) => {
      const counts = createEventCounts({ version, platformEvents: enabled() });
      counts.record("log", "qseow-engine", "h", "s");
      counts.record("log", "qseow-engine", "h", "s");
      return counts.take(NOW).points[0]?.fields.counter;
    };

    expect(counterOn(1)).toEqual(floatField(2));
    expect(counterOn(2)).toEqual(integerField(2));
    expect(counterOn(3)).toEqual(integerField(2));
  });

  it("uses the configured measurement name and tags, which never replace the count's own tags", () => {
    const counts = createEventCounts({
      version: 3,
      platformEvents: enabled({
        timeseriesdb: {
          measurementName: "udp_counts",
          tags: [
            { name: "env", value: "prod" },
            { name: "source", value: "config" },
          ],
        },
      }),
    });

    counts.record("log", "qseow-proxy", "h", "s");

    const [point] = counts.take(NOW).points;
    expect(point?.measurement).toBe("udp_counts");
    expect(point?.tags).toEqual({
      env: "prod",
      source: "qseow-proxy",
      event_type: "log",
      host: "h",
      subsystem: "s",
    });
  });

  it("counts empty source, host or subsystem as unknown", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });

    counts.record("log", "", "", "");

    expect(counts.take(NOW).points[0]?.tags).toMatchObject({
      source: "unknown",
      host: "unknown",
      subsystem: "unknown",
    });
  });

  it("keeps no interval counts while eventCount is disabled, whatever else is on", () => {
    const counts = createEventCounts({
      version: 3,
      platformEvents: platformEventsConfig({
        timeseriesdb: { enable: true },
        rejectedEventCount: { enable: true },
      }),
    });

    counts.record("log", "qseow-engine", "h", "s");

    expect(counts.take(NOW).points).toEqual([]);
  });
});

describe("createEventCounts: intervals, overflow and totals", () => {
  it("resets only what a take carried once written() is called", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });
    counts.record("log", "qseow-engine", "h", "s");
    counts.record("log", "qseow-engine", "h", "s");

    const first = counts.take(NOW);
    counts.record("log", "qseow-engine", "h", "s");
    first.written();

    expect(counts.take(NOW).points.map((p) => p.fields.counter)).toEqual([integerField(1)]);
  });

  it("carries an unwritten interval into the next take", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });
    counts.record("user", "qseow-proxy-session", "h", "o");
    counts.take(NOW);
    counts.record("user", "qseow-proxy-session", "h", "o");

    expect(counts.take(NOW).points.map((p) => p.fields.counter)).toEqual([integerField(2)]);
  });

  it("subtracts only once when written() is called twice", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });
    counts.record("log", "qseow-engine", "h", "s");
    const first = counts.take(NOW);
    counts.record("log", "qseow-engine", "h", "s");

    first.written();
    first.written();

    expect(counts.take(NOW).points.map((p) => p.fields.counter)).toEqual([integerField(1)]);
  });

  it("has nothing to write after a written take", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });
    counts.record("log", "qseow-engine", "h", "s");

    counts.take(NOW).written();

    expect(counts.take(NOW).points).toEqual([]);
  });

  it("folds new hosts into an overflow row once the interval holds too many keys", () => {
    const counts = createEventCounts({ version: 3, platformEvents: enabled() });
    for (let i = 0; i < MAX_INTERVAL_KEYS; i++) counts.record("log", "qseow-engine", `h${i}`, "s");

    counts.record("log", "qseow-engine", "one-more", "s");
    counts.record("log", "qseow-engine", "h0", "s");

    const points = counts.take(NOW).points;
    expect(points).toHaveLength(MAX_INTERVAL_KEYS + 1);
    expect(points.at(-1)?.tags).toMatchObject({ host: "overflow", subsystem: "overflow" });
    expect(points[0]?.fields.counter).toEqual(integerField(2));
  });

  it("declares steward_events_total with totals since start that written() never resets", () => {
    const metrics = recordingRegistry();
    const counts = createEventCounts({ version: 3, platformEvents: platformEventsConfig(), metrics });

    counts.record("log", "qseow-engine", "h1", "s");
    counts.record("log", "qseow-engine", "h2", "s");
    counts.record("user", "unknown", "unknown", "unknown");
    counts.take(NOW).written();

    const [spec] = metrics.counters;
    expect(spec?.name).toBe("steward_events_total");
    expect(spec?.labelNames).toEqual(["event_type", "source"]);
    expect([...(spec?.collect() ?? [])]).toEqual([
      { labels: { event_type: "log", source: "qseow-engine" }, value: 2 },
      { labels: { event_type: "user", source: "unknown" }, value: 1 },
    ]);
  });
});
