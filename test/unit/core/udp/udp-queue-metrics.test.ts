import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { encodePoint } from "../../../../core/shared/line-protocol.ts";
import type { DatagramOutcome } from "../../../../core/udp/event-destinations.ts";
import { createUdpQueue, type UdpQueueName } from "../../../../core/udp/udp-queue.ts";
import { registerUdpQueueMetrics, udpQueueMetricsPoints } from "../../../../core/udp/udp-queue-metrics.ts";
import { parseLineProtocol } from "../../../helpers/line-protocol-parser.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const SENDER = { address: "10.0.0.1", port: 50_000 };

/** A queue whose processor answers the outcome named by the datagram's first byte, taking `ms`. */
function setup(name: UdpQueueName = "user_events") {
  const clock = createManualClock(T0);
  let elapsed = 0;
  const outcomes: DatagramOutcome[] = ["processed", "malformed", "unknown_marker", "dropped_by_rule"];
  const queue = createUdpQueue(
    {
      name,
      config: {
        messageQueue: { maxConcurrent: 1, maxSize: 4, backpressureThreshold: 80 },
        rateLimit: { enable: true, maxMessagesPerMinute: 100 },
        maxMessageSize: 100,
      },
    },
    {
      processor: async (datagram) => {
        elapsed += datagram[1] ?? 0;
        const outcome = outcomes[datagram[0] ?? 0];
        if (outcome === undefined) throw new Error("boom");
        return outcome;
      },
      sources: { enforcing: true, accepts: (sender) => sender.address !== "10.0.0.66" },
      clock,
      logger: recordingLogger(),
      elapsedMs: () => elapsed,
    },
  );
  /** Offers a datagram with outcome index `kind` and processing time `ms`. */
  const offer = (kind: number, ms = 0) => queue.offer(Uint8Array.of(kind, ms), SENDER, clock.now());
  return { queue, clock, offer };
}

const config = { measurementName: "user_events_queue", tags: [{ name: "env", value: "prod" }] };

describe("udpQueueMetricsPoints", () => {
  it("writes one point with Butler SOS's fields (their InfluxDB 3.x types), queue_type, host and the configured tags", async () => {
    const { queue, clock, offer } = setup();
    offer(0, 2);
    offer(1, 4);
    offer(2, 6);
    offer(3, 8);
    offer(9); // the processor throws
    await queue.drain();
    queue.offer(new Uint8Array(101), SENDER, clock.now()); // size
    queue.offer(Uint8Array.of(0), { address: "10.0.0.66", port: 1 }, clock.now()); // source
    const points = udpQueueMetricsPoints(queue, { config, host: "agent-1", version: 3 });
    clock.advance(30_000);

    const { points: taken } = points.take(clock.now());

    expect(taken).toHaveLength(1);
    const [parsed] = parseLineProtocol(encodePoint(taken[0]!));
    expect(parsed).toEqual({
      measurement: "user_events_queue",
      tags: { queue_type: "user_events", host: "agent-1", env: "prod" },
      fields: {
        queue_size: { type: "integer", value: 0 },
        queue_max_size: { type: "integer", value: 4 },
        queue_running: { type: "integer", value: 0 },
        messages_received: { type: "integer", value: 7 },
        messages_queued: { type: "integer", value: 5 },
        messages_processed: { type: "integer", value: 4 },
        messages_failed: { type: "integer", value: 1 },
        messages_dropped_total: { type: "integer", value: 2 },
        messages_dropped_rate_limit: { type: "integer", value: 0 },
        messages_dropped_queue_full: { type: "integer", value: 0 },
        messages_dropped_size: { type: "integer", value: 1 },
        backpressure_active: { type: "integer", value: 0 },
        queue_utilization_pct: { type: "float", value: 0 },
        processing_time_avg_ms: { type: "float", value: 4 },
        processing_time_p95_ms: { type: "float", value: 8 },
        processing_time_max_ms: { type: "float", value: 8 },
        // 5 admitted in the 30 s of this window so far.
        rate_limit_current: { type: "integer", value: 10 },
        messages_dropped_source: { type: "integer", value: 1 },
        messages_malformed: { type: "integer", value: 1 },
        messages_unknown_marker: { type: "integer", value: 1 },
        messages_dropped_by_rule: { type: "integer", value: 1 },
      },
      timestamp: T0 + 30_000,
    });
  });

  it("types every count as Butler SOS did: floats on InfluxDB 1.x (no schema in its client), integers on 2.x", async () => {
    const { queue, clock, offer } = setup();
    offer(0, 2);
    offer(1, 4);
    await queue.drain();
    const typesOn = (version: 1 | 2) => {
      const [point] = udpQueueMetricsPoints(queue, { config, host: "h", version }).take(clock.now()).points;
      const [parsed] = parseLineProtocol(encodePoint(point!));
      return Object.fromEntries(Object.entries(parsed!.fields).map(([name, field]) => [name, field.type]));
    };

    const v1 = typesOn(1);
    const v2 = typesOn(2);

    expect(Object.keys(v1)).toEqual(Object.keys(v2));
    expect(new Set(Object.values(v1))).toEqual(new Set(["float"]));
    const floats = [
      "queue_utilization_pct",
      "processing_time_avg_ms",
      "processing_time_p95_ms",
      "processing_time_max_ms",
    ];
    for (const [name, type] of Object.entries(v2)) {
      expect(type, name).toBe(floats.includes(name) ? "float" : "integer");
    }
  });

  it("reports the queue's state at the time of the take", () => {
    const { queue, clock, offer } = setup("log_events");
    for (let i = 0; i < 6; i += 1) offer(0); // 1 running, 4 waiting, 1 dropped as queue full

    const { points } = udpQueueMetricsPoints(queue, { config, host: "h", version: 3 }).take(clock.now());

    expect(points[0]?.tags.queue_type).toBe("log_events");
    expect(points[0]?.fields).toMatchObject({
      queue_size: { kind: "integer", value: 4 },
      queue_running: { kind: "integer", value: 1 },
      queue_utilization_pct: { kind: "float", value: 100 },
      backpressure_active: { kind: "integer", value: 1 },
      messages_dropped_queue_full: { kind: "integer", value: 1 },
    });
  });

  it("counts from the last successful write: written() moves the baseline", async () => {
    const { queue, clock, offer } = setup();
    const points = udpQueueMetricsPoints(queue, { config, host: "h", version: 3 });
    offer(0, 10);
    offer(0, 10);
    await queue.drain();
    points.take(clock.now()).written();

    offer(0, 3);
    await queue.drain();
    const { points: second } = points.take(clock.now());

    expect(second[0]?.fields).toMatchObject({
      messages_received: { kind: "integer", value: 1 },
      messages_processed: { kind: "integer", value: 1 },
      processing_time_max_ms: { kind: "float", value: 3 },
      processing_time_avg_ms: { kind: "float", value: 3 },
    });
  });

  it("carries an interval that was not written into the next point", async () => {
    const { queue, clock, offer } = setup();
    const points = udpQueueMetricsPoints(queue, { config, host: "h", version: 3 });
    offer(0, 10);
    await queue.drain();
    points.take(clock.now()); // the write failed: no written()

    offer(0, 3);
    await queue.drain();
    const { points: second } = points.take(clock.now());

    expect(second[0]?.fields).toMatchObject({
      messages_received: { kind: "integer", value: 2 },
      messages_processed: { kind: "integer", value: 2 },
      processing_time_max_ms: { kind: "float", value: 10 },
    });
  });

  it("does not move the baseline back when an older take is confirmed after a newer one", async () => {
    const { queue, clock, offer } = setup();
    const points = udpQueueMetricsPoints(queue, { config, host: "h", version: 3 });
    offer(0);
    await queue.drain();
    const older = points.take(clock.now());
    offer(0);
    await queue.drain();
    const newer = points.take(clock.now());

    newer.written();
    older.written();
    const { points: next } = points.take(clock.now());

    expect(next[0]?.fields.messages_received).toEqual({ kind: "integer", value: 0 });
  });
});

describe("udpQueueMetricsPoints and the operating system's drops", () => {
  it("writes messages_dropped_kernel as the drops since the last successful write, outside messages_dropped_total", () => {
    // Prepare
    const { queue, clock } = setup();
    let dropped = 40;
    const points = udpQueueMetricsPoints(queue, {
      config,
      host: "h",
      version: 3,
      kernelDrops: () => ({ dropped }),
    });

    // Act
    const first = points.take(clock.now());
    first.written();
    dropped = 55;
    const unwritten = points.take(clock.now()).points[0];
    dropped = 60;
    const carried = points.take(clock.now()).points[0];

    // Assess
    expect(first.points[0]?.fields.messages_dropped_kernel).toEqual({ kind: "integer", value: 40 });
    expect(first.points[0]?.fields.messages_dropped_total).toEqual({ kind: "integer", value: 0 });
    expect(first.points[0]?.fields.messages_received).toEqual({ kind: "integer", value: 0 });
    expect(unwritten?.fields.messages_dropped_kernel).toEqual({ kind: "integer", value: 15 });
    expect(carried?.fields.messages_dropped_kernel).toEqual({ kind: "integer", value: 20 });
  });

  it("types messages_dropped_kernel like the other queue counts: a float on InfluxDB 1.x", () => {
    const { queue, clock } = setup();
    const points = udpQueueMetricsPoints(queue, {
      config,
      host: "h",
      version: 1,
      kernelDrops: () => ({ dropped: 7 }),
    });

    const { points: taken } = points.take(clock.now());

    expect(taken[0]?.fields.messages_dropped_kernel).toEqual({ kind: "float", value: 7 });
  });

  it("leaves messages_dropped_kernel out, never 0, where the system reports no count", () => {
    const { queue, clock } = setup();
    const points = udpQueueMetricsPoints(queue, {
      config,
      host: "h",
      version: 3,
      kernelDrops: () => ({ dropped: null, reason: "cannot read /proc/net/udp (ENOENT)" }),
    });

    const { points: taken } = points.take(clock.now());

    expect(taken[0]?.fields).not.toHaveProperty("messages_dropped_kernel");
    expect(taken[0]?.fields).toHaveProperty("messages_dropped_by_rule");
  });
});

describe("registerUdpQueueMetrics", () => {
  it("publishes cumulative messages per queue and outcome, and the queue size", async () => {
    const user = setup("user_events");
    const log = setup("log_events");
    const registry = createPromMetricsRegistry();
    registerUdpQueueMetrics(registry, [user.queue, log.queue]);
    user.offer(0);
    user.offer(1);
    await user.queue.drain();
    for (let i = 0; i < 3; i += 1) log.offer(0); // 1 running, 2 waiting

    const text = await registry.metrics();

    expect(text).toContain("# TYPE steward_udp_messages_total counter");
    expect(text).toContain('steward_udp_messages_total{queue="user_events",outcome="received"} 2');
    expect(text).toContain('steward_udp_messages_total{queue="user_events",outcome="processed"} 1');
    expect(text).toContain('steward_udp_messages_total{queue="user_events",outcome="malformed"} 1');
    expect(text).toContain('steward_udp_messages_total{queue="log_events",outcome="received"} 3');
    expect(text).toContain('steward_udp_messages_total{queue="log_events",outcome="dropped_queue_full"} 0');
    expect(text).toContain("# TYPE steward_udp_queue_size gauge");
    expect(text).toContain('steward_udp_queue_size{queue="log_events"} 2');
    expect(text).toContain('steward_udp_queue_size{queue="user_events"} 0');
  });

  it("labels every outcome (received, processed, each drop reason) for every queue, and never resets them after a write", async () => {
    const { queue, clock, offer } = setup();
    const registry = createMemoryMetricsRegistry();
    registerUdpQueueMetrics(registry, [queue]);
    offer(0);
    await queue.drain();
    udpQueueMetricsPoints(queue, { config, host: "h", version: 3 }).take(clock.now()).written();

    const messages = registry.scrape().find((m) => m.name === "steward_udp_messages_total");

    expect(messages?.samples.map((s) => s.labels.outcome)).toEqual([
      "received",
      "processed",
      "dropped_source",
      "dropped_size",
      "dropped_rate_limit",
      "dropped_queue_full",
      "malformed",
      "unknown_marker",
      "dropped_by_rule",
      "failed",
    ]);
    expect(messages?.samples.find((s) => s.labels.outcome === "received")?.value).toBe(1);
  });

  it("publishes dropped_kernel per queue where the system counts it, and no such label where it does not", () => {
    // Prepare
    const user = setup("user_events");
    const log = setup("log_events");
    const registry = createMemoryMetricsRegistry();
    registerUdpQueueMetrics(registry, [user.queue, log.queue], (queue) =>
      queue === user.queue
        ? { dropped: 17 }
        : { dropped: null, reason: "cannot read /proc/net/udp (ENOENT)" },
    );

    // Act
    const messages = registry.scrape().find((m) => m.name === "steward_udp_messages_total");

    // Assess
    const kernel = messages?.samples.filter((s) => s.labels.outcome === "dropped_kernel");
    expect(kernel).toEqual([{ labels: { queue: "user_events", outcome: "dropped_kernel" }, value: 17 }]);
    expect(messages?.samples.filter((s) => s.labels.queue === "log_events")).toHaveLength(10);
  });
});
