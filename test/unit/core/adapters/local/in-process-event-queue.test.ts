import { describe, expect, it } from "vitest";
import {
  createInProcessEventQueue,
  type InProcessEventQueueOptions,
} from "../../../../../core/adapters/local/in-process-event-queue.ts";
import { EventQueueUnavailableError } from "../../../../../core/audit/queue-errors.ts";
import type { AcceptedEventHandler } from "../../../../../core/ports.ts";
import { bareAuditEvent } from "../../../../helpers/audit-events.ts";
import { createManualClock } from "../../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";

const eventNo = (n: number) => bareAuditEvent(`e${n}`);

/** A handler whose calls stay pending until the test releases them. */
function gatedHandler() {
  const started: string[] = [];
  const releases: Array<() => void> = [];
  const handler: AcceptedEventHandler = (event) =>
    new Promise<void>((resolve) => {
      started.push(event.envelope.eventId);
      releases.push(resolve);
    });
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { handler, started, releaseAll };
}

const base: InProcessEventQueueOptions = {
  maxSize: 2,
  maxConcurrent: 1,
  backpressureThreshold: 80,
  rateLimit: { enable: false, maxPerMinute: 600 },
};

function setup(options: Partial<InProcessEventQueueOptions> = {}, handler?: AcceptedEventHandler) {
  const gate = gatedHandler();
  const logger = recordingLogger();
  const clock = createManualClock();
  const queue = createInProcessEventQueue(
    { ...base, ...options },
    { handler: handler ?? gate.handler, logger, clock },
  );
  return { queue, gate, logger, clock };
}

describe("in-process event queue", () => {
  it("holds maxSize waiting events plus maxConcurrent running ones, then answers full", async () => {
    const { queue, gate } = setup();

    const answers = [];
    for (let i = 1; i <= 5; i++) answers.push(await queue.enqueue(eventNo(i)));

    expect(answers).toEqual(["queued", "queued", "queued", "full", "full"]);
    expect(gate.started).toEqual(["e1"]);
    expect(queue.metrics()).toMatchObject({
      received: 5,
      queued: 3,
      droppedQueueFull: 2,
      droppedTotal: 2,
      waiting: 2,
      running: 1,
    });
  });

  it("runs at most maxConcurrent handlers at once and processes every queued event in order", async () => {
    const { queue, gate } = setup({ maxConcurrent: 2, maxSize: 10 });

    for (let i = 1; i <= 5; i++) await queue.enqueue(eventNo(i));
    expect(gate.started).toEqual(["e1", "e2"]);
    await gate.releaseAll();
    await queue.drain();

    expect(gate.started).toEqual(["e1", "e2", "e3", "e4", "e5"]);
    expect(queue.metrics()).toMatchObject({ processed: 5, failed: 0, waiting: 0, running: 0 });
  });

  it("answers rate-limited beyond queue.rateLimit per minute and allows again in the next window", async () => {
    const { queue, clock } = setup(
      { maxSize: 10, rateLimit: { enable: true, maxPerMinute: 2 } },
      async () => {},
    );

    const answers = [
      await queue.enqueue(eventNo(1)),
      await queue.enqueue(eventNo(2)),
      await queue.enqueue(eventNo(3)),
    ];
    clock.advance(60_000);
    answers.push(await queue.enqueue(eventNo(4)));

    expect(answers).toEqual(["queued", "queued", "rate-limited", "queued"]);
    expect(queue.metrics().droppedRateLimit).toBe(1);
  });

  it("counts and logs a failing handler without stopping the queue", async () => {
    const logger = recordingLogger();
    let calls = 0;
    const queue = createInProcessEventQueue(
      { ...base, maxSize: 10 },
      {
        handler: async () => {
          calls += 1;
          if (calls === 1) throw new Error("writer down");
        },
        logger,
        clock: createManualClock(),
      },
    );

    await queue.enqueue(eventNo(1));
    await queue.enqueue(eventNo(2));
    await queue.drain();

    expect(queue.metrics()).toMatchObject({ processed: 1, failed: 1 });
    expect(logger.at("error")[0]?.fields).toMatchObject({ eventId: "e1", error: "writer down" });
  });

  it("warns about backpressure once when waiting events reach the threshold", async () => {
    const { queue, logger } = setup({ maxSize: 5, backpressureThreshold: 80 });

    for (let i = 1; i <= 6; i++) await queue.enqueue(eventNo(i));

    expect(logger.at("warn").filter((e) => e.message.includes("backpressure"))).toHaveLength(1);
    expect(queue.metrics().backpressureActive).toBe(true);
  });

  it("stop() refuses new events and resolves only after every accepted event was handled", async () => {
    const { queue, gate } = setup({ maxSize: 10 });
    for (let i = 1; i <= 3; i++) await queue.enqueue(eventNo(i));

    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    const refused = await queue.enqueue(eventNo(9)).catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    await gate.releaseAll();
    await stopping;

    expect(refused).toBeInstanceOf(EventQueueUnavailableError);
    expect(gate.started).toEqual(["e1", "e2", "e3"]);
    expect(queue.metrics().processed).toBe(3);
  });

  it("reports how long the handler took per event as processing times", async () => {
    const { queue, gate, clock } = setup({ maxConcurrent: 2 });
    expect(queue.metrics()).toMatchObject({ processingTimeAvgMs: 0, processingTimeMaxMs: 0 });
    await queue.enqueue(eventNo(1));
    await queue.enqueue(eventNo(2));

    clock.advance(12);
    await gate.releaseAll();
    await queue.drain();

    expect(queue.metrics()).toMatchObject({
      processingTimeAvgMs: 12,
      processingTimeP95Ms: 12,
      processingTimeMaxMs: 12,
    });
  });
});
