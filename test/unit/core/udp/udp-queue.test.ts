import { describe, expect, it } from "vitest";
import type { DatagramOutcome, DatagramProcessor } from "../../../../core/udp/event-destinations.ts";
import type { SourceValidator } from "../../../../core/udp/source-validator.ts";
import { createUdpQueue, type UdpQueueConfig } from "../../../../core/udp/udp-queue.ts";
import type { UdpSender } from "../../../../core/udp/udp-sender.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

// The start of a minute, so fixed rate-limit windows line up with the test's offsets.
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const SENDER: UdpSender = { address: "10.0.0.1", port: 50_000 };
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Call {
  datagram: Uint8Array;
  receivedAtMs: number;
  sender: string | undefined;
  finish(outcome?: DatagramOutcome): void;
  fail(error: Error): void;
}

/** A processor whose calls stay pending until the test finishes them; tracks concurrency. */
function gatedProcessor() {
  const calls: Call[] = [];
  const state = { running: 0, peak: 0 };
  const processor: DatagramProcessor = (datagram, receivedAtMs, sender) =>
    new Promise((resolve, reject) => {
      state.running += 1;
      state.peak = Math.max(state.peak, state.running);
      calls.push({
        datagram,
        receivedAtMs,
        sender,
        finish: (outcome = "processed") => {
          state.running -= 1;
          resolve(outcome);
        },
        fail: (error) => {
          state.running -= 1;
          reject(error);
        },
      });
    });
  /** Finishes the oldest unfinished calls, one at a time, letting the queue start the next. */
  const finishNext = async (count = 1, outcome?: DatagramOutcome) => {
    for (let i = 0; i < count; i += 1) {
      const call = calls.find((c) => !finished.has(c));
      if (call === undefined) return;
      finished.add(call);
      call.finish(outcome);
      await settle();
    }
  };
  const finished = new Set<Call>();
  const finishAll = async () => {
    while (calls.some((c) => !finished.has(c))) await finishNext();
  };
  return { processor, calls, state, finishNext, finishAll };
}

function setup(
  config: {
    maxConcurrent?: number;
    maxSize?: number;
    backpressureThreshold?: number;
    rateLimit?: number;
    maxMessageSize?: number;
  } = {},
  overrides: { processor?: DatagramProcessor; sources?: SourceValidator } = {},
) {
  const queueConfig: UdpQueueConfig = {
    messageQueue: {
      maxConcurrent: config.maxConcurrent ?? 2,
      maxSize: config.maxSize ?? 10,
      backpressureThreshold: config.backpressureThreshold ?? 80,
    },
    rateLimit: { enable: config.rateLimit !== undefined, maxMessagesPerMinute: config.rateLimit ?? 600 },
    maxMessageSize: config.maxMessageSize ?? 65_507,
  };
  const gate = gatedProcessor();
  const clock = createManualClock(T0);
  const logger = recordingLogger();
  const queue = createUdpQueue(
    { name: "user_events", config: queueConfig },
    {
      processor: overrides.processor ?? gate.processor,
      clock,
      logger,
      ...(overrides.sources === undefined ? {} : { sources: overrides.sources }),
    },
  );
  const offer = (bytes = 10, sender = SENDER) => queue.offer(new Uint8Array(bytes), sender, clock.now());
  return { queue, gate, clock, logger, offer };
}

const refusing = (address: string): SourceValidator => ({
  enforcing: true,
  accepts: (sender) => sender.address !== address,
});

describe("createUdpQueue: admission", () => {
  it("hands an admitted datagram to the processor with its receive time and sender address", async () => {
    const { queue, gate } = setup();
    const datagram = Uint8Array.of(1, 2, 3);

    const admission = queue.offer(datagram, SENDER, T0 - 5);

    expect(admission).toBe("queued");
    expect(gate.calls).toHaveLength(1);
    expect(gate.calls[0]).toMatchObject({ datagram, receivedAtMs: T0 - 5, sender: SENDER.address });
  });

  it("holds maxSize + maxConcurrent datagrams and drops the next as queue full", () => {
    const { queue, offer } = setup({ maxConcurrent: 2, maxSize: 3 });

    const admissions = Array.from({ length: 6 }, () => offer());

    expect(admissions).toEqual(["queued", "queued", "queued", "queued", "queued", "dropped_queue_full"]);
    expect(queue.state()).toMatchObject({ running: 2, waiting: 3 });
    expect(queue.counters()).toMatchObject({ received: 6, queued: 5, droppedQueueFull: 1 });
  });

  it("drops a datagram longer than maxMessageSize bytes, not one of exactly that length", () => {
    const { queue, offer, logger } = setup({ maxMessageSize: 100 });

    const admissions = [offer(100), offer(101)];

    expect(admissions).toEqual(["queued", "dropped_size"]);
    expect(queue.counters()).toMatchObject({ received: 2, queued: 1, droppedSize: 1 });
    expect(logger.at("warn").map((e) => e.message)).toEqual([
      "Message for user_events from 10.0.0.1:50000 exceeds size limit: 101 bytes (max 100)",
    ]);
  });

  it("drops datagrams beyond maxMessagesPerMinute within one fixed window and admits again in the next", () => {
    const { queue, offer, clock } = setup({ rateLimit: 3, maxConcurrent: 100 });
    clock.advance(59_000);

    const lateInWindow = [offer(), offer(), offer(), offer()];
    clock.advance(1000);
    // A sliding window would still count the three hits of one second ago.
    const nextWindow = [offer(), offer(), offer(), offer()];

    expect(lateInWindow).toEqual(["queued", "queued", "queued", "dropped_rate_limit"]);
    expect(nextWindow).toEqual(["queued", "queued", "queued", "dropped_rate_limit"]);
    expect(queue.counters()).toMatchObject({ queued: 6, droppedRateLimit: 2 });
  });

  it("does not limit the rate when rateLimit.enable is false", () => {
    const { offer } = setup({ maxConcurrent: 1000, maxSize: 1000 });

    const admissions = Array.from({ length: 1500 }, () => offer());

    expect(admissions.every((a) => a === "queued")).toBe(true);
  });

  it("drops a datagram from a refused sender before any other check", () => {
    const { queue, offer } = setup({ maxMessageSize: 10, rateLimit: 1 }, { sources: refusing("10.0.0.66") });
    const stranger = { address: "10.0.0.66", port: 1 };

    // Oversized and over the rate: still a source drop, and it uses up no rate-limit slot.
    const admissions = [offer(500, stranger), offer(5, stranger), offer(5)];

    expect(admissions).toEqual(["dropped_source", "dropped_source", "queued"]);
    expect(queue.counters()).toMatchObject({
      received: 3,
      droppedSource: 2,
      droppedSize: 0,
      droppedRateLimit: 0,
    });
  });

  it("checks the size before the rate limit, so an oversized datagram uses up no slot", () => {
    const { offer } = setup({ maxMessageSize: 10, rateLimit: 1 });

    expect([offer(11), offer(10), offer(10)]).toEqual(["dropped_size", "queued", "dropped_rate_limit"]);
  });

  it("applies the rate limit before the queue, so a limited datagram is never counted as queue full", () => {
    const { queue, offer } = setup({ maxConcurrent: 1, maxSize: 1, rateLimit: 2 });

    const admissions = [offer(), offer(), offer()];

    expect(admissions).toEqual(["queued", "queued", "dropped_rate_limit"]);
    expect(queue.counters().droppedQueueFull).toBe(0);
  });
});

describe("createUdpQueue: concurrency", () => {
  it("runs at most maxConcurrent datagrams at once, in arrival order", async () => {
    const { queue, gate } = setup({ maxConcurrent: 3, maxSize: 20 });
    for (let i = 0; i < 12; i += 1) queue.offer(Uint8Array.of(i), SENDER, T0);

    const startedAtOnce = gate.calls.length;
    await gate.finishAll();

    expect(startedAtOnce).toBe(3);
    expect(gate.state.peak).toBe(3);
    expect(gate.calls.map((call) => call.datagram[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(queue.counters()).toMatchObject({ queued: 12, processed: 12 });
  });

  it("counts each outcome the processor reports", async () => {
    const outcomes: DatagramOutcome[] = [
      "processed",
      "malformed",
      "malformed",
      "unknown_marker",
      "dropped_by_rule",
    ];
    let next = 0;
    const { queue, offer } = setup({}, { processor: async () => outcomes[next++] ?? "processed" });

    for (let i = 0; i < outcomes.length; i += 1) offer();
    await queue.drain();

    expect(queue.counters()).toMatchObject({
      processed: 1,
      malformed: 2,
      unknownMarker: 1,
      droppedByRule: 1,
      failed: 0,
    });
  });

  it("counts a processor that throws or rejects as failed, logs it throttled, and goes on", async () => {
    let call = 0;
    const processor: DatagramProcessor = (datagram) => {
      call += 1;
      if (datagram[0] === 1) throw new Error("parser bug");
      if (datagram[0] === 2) return Promise.reject(new Error("sink bug"));
      return Promise.resolve("processed");
    };
    const { queue, logger, clock } = setup({ maxConcurrent: 1, maxSize: 10 }, { processor });

    for (const kind of [1, 2, 0, 1, 0]) queue.offer(Uint8Array.of(kind), SENDER, clock.now());
    await queue.drain();
    clock.advance(60_000);
    queue.offer(Uint8Array.of(2), SENDER, clock.now());
    await queue.drain();

    expect(call).toBe(6);
    expect(queue.counters()).toMatchObject({ queued: 6, failed: 4, processed: 2 });
    expect(logger.at("error").map((e) => e.fields)).toEqual([
      { error: "Error: parser bug", heldBackSinceLastError: 0 },
      { error: "Error: sink bug", heldBackSinceLastError: 2 },
    ]);
    expect(logger.at("debug")).toHaveLength(2);
  });

  it("records the time in queue from offer to processing start", async () => {
    let now = 100;
    const gate = gatedProcessor();
    const queue = createUdpQueue(
      {
        name: "log_events",
        config: {
          messageQueue: { maxConcurrent: 1, maxSize: 10, backpressureThreshold: 80 },
          rateLimit: { enable: false, maxMessagesPerMinute: 600 },
          maxMessageSize: 65_507,
        },
      },
      {
        processor: gate.processor,
        clock: createManualClock(T0),
        logger: recordingLogger(),
        elapsedMs: () => now,
      },
    );

    queue.offer(Uint8Array.of(1), SENDER, T0);
    queue.offer(Uint8Array.of(2), SENDER, T0);
    now = 107.5;
    await gate.finishNext();
    now = 110;
    await gate.finishNext();

    expect(queue.stats().timeInQueue).toMatchObject({ count: 2, maxMs: 7.5, p99Ms: 7.5, avgMs: 3.75 });
    expect(queue.stats().processingTime).toMatchObject({ count: 2, maxMs: 7.5, avgMs: 5 });
  });
});

describe("createUdpQueue: logging drops", () => {
  it("logs the first drop of each reason per minute at WARN and the rest at DEBUG", () => {
    const { offer, logger, clock } = setup({ maxMessageSize: 10 });

    offer(11);
    offer(12);
    offer(13);
    clock.advance(60_000);
    offer(14);

    const sizeLines = logger.entries.filter((e) => e.message.includes("exceeds size limit"));
    expect(sizeLines.map((e) => [e.level, e.fields])).toEqual([
      ["warn", undefined],
      ["debug", undefined],
      ["debug", undefined],
      ["warn", { heldBackSinceLastWarning: 2 }],
    ]);
  });

  it("logs rate-limit and queue-full drops throttled too", () => {
    const { offer, logger } = setup({ maxConcurrent: 1, maxSize: 1, rateLimit: 4 });

    for (let i = 0; i < 6; i += 1) offer();

    const warns = logger.at("warn").map((e) => e.message);
    expect(warns.filter((m) => m.startsWith("Queue full for user_events"))).toHaveLength(1);
    expect(warns.filter((m) => m.startsWith("Rate limit exceeded for user_events"))).toHaveLength(1);
    expect(logger.at("debug")).toHaveLength(2);
  });

  it("reports a minute's drops once, from a timer, even when nothing arrives afterwards", () => {
    const { offer, logger, clock } = setup({ maxMessageSize: 10, maxConcurrent: 1, maxSize: 1 });
    const summaries = () => logger.at("warn").filter((e) => e.message.startsWith("Dropped "));

    offer(11);
    clock.advance(30_000);
    offer();
    offer();
    offer(); // queue full
    clock.advance(29_999);
    const beforeTheMinute = summaries().length;
    clock.advance(1);
    clock.advance(10 * 60_000);

    expect(beforeTheMinute).toBe(0);
    expect(summaries().map((e) => [e.message, e.fields])).toEqual([
      ["Dropped 2 messages for user_events in the last minute", { size: 1, queue_full: 1 }],
    ]);
  });

  it("reports later drops in a later summary, never two within a minute", () => {
    const { offer, logger, clock } = setup({ maxMessageSize: 10 });
    const summaries = () => logger.at("warn").filter((e) => e.message.startsWith("Dropped "));

    offer(11);
    clock.advance(60_000);
    offer(11);
    offer(11);
    clock.advance(59_999);
    const afterFirst = summaries().length;
    clock.advance(1);

    expect(afterFirst).toBe(1);
    expect(summaries().map((e) => e.message)).toEqual([
      "Dropped 1 messages for user_events in the last minute",
      "Dropped 2 messages for user_events in the last minute",
    ]);
  });
});

describe("createUdpQueue: backpressure", () => {
  it("warns when utilisation reaches the threshold, repeats at most each minute, and clears below 0.8 × threshold", async () => {
    const { offer, logger, clock, gate, queue } = setup({
      maxConcurrent: 1,
      maxSize: 10,
      backpressureThreshold: 50,
    });
    const lines = () => logger.entries.filter((e) => e.message.startsWith("Backpressure"));

    for (let i = 0; i < 6; i += 1) offer(); // 1 running, 5 waiting: checked at 4 waiting = 40 %
    const belowThreshold = lines().length;
    offer(); // 5 waiting before the add = 50 %
    offer();
    clock.advance(59_999);
    offer();
    const withinTheMinute = lines().length;
    clock.advance(1);
    offer();
    await gate.finishNext(4); // 9 → 5 waiting: 50 %, still active
    const stillActive = queue.state().backpressureActive;
    await gate.finishNext(1); // 4 waiting: 40 % = 0.8 × 50 %, not below it
    const atClearLine = queue.state().backpressureActive;
    await gate.finishNext(1); // 3 waiting: 30 %

    expect(belowThreshold).toBe(0);
    expect(withinTheMinute).toBe(1);
    expect(stillActive).toBe(true);
    expect(atClearLine).toBe(true);
    expect(queue.state().backpressureActive).toBe(false);
    expect(lines().map((e) => [e.level, e.message])).toEqual([
      ["warn", "Backpressure detected for user_events: Queue utilization 50% (threshold: 50%)"],
      ["warn", "Backpressure continues for user_events: Queue size 8/10"],
      ["info", "Backpressure cleared for user_events: Queue utilization 30%"],
    ]);
  });
});

describe("createUdpQueue: stop", () => {
  it("refuses new datagrams and resolves only once every waiting and running one has finished", async () => {
    const { queue, gate, offer } = setup({ maxConcurrent: 2, maxSize: 10 });
    for (let i = 0; i < 5; i += 1) offer();
    let stopped = false;

    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    const afterStop = offer();
    await gate.finishNext(4);
    const beforeLast = stopped;
    await gate.finishNext(1);
    await stopping;

    expect(afterStop).toBe("stopped");
    expect(beforeLast).toBe(false);
    expect(stopped).toBe(true);
    expect(queue.counters()).toMatchObject({ received: 5, queued: 5, processed: 5 });
  });

  it("reports pending drops at once and leaves no timer behind", async () => {
    const clock = createAsyncManualClock(T0);
    const logger = recordingLogger();
    const queue = createUdpQueue(
      {
        name: "log_events",
        config: {
          messageQueue: { maxConcurrent: 1, maxSize: 1, backpressureThreshold: 80 },
          rateLimit: { enable: false, maxMessagesPerMinute: 600 },
          maxMessageSize: 10,
        },
      },
      { processor: async () => "processed", clock, logger },
    );
    queue.offer(new Uint8Array(11), SENDER, clock.now());

    await queue.stop();

    expect(logger.at("warn").map((e) => e.message)).toContain(
      "Dropped 1 messages for log_events in the last minute",
    );
    expect(clock.pendingTimers()).toBe(0);
  });

  it("drain resolves at once when idle and keeps admitting", async () => {
    const { queue, offer } = setup({}, { processor: async () => "processed" });

    await queue.drain();
    const admission = offer();
    await queue.drain();

    expect(admission).toBe("queued");
    expect(queue.counters().processed).toBe(1);
  });
});
