/**
 * The local EventQueue: a bounded in-process queue. `maxSize` events may wait and `maxConcurrent`
 * run the injected handler at once; an optional global fixed-window counter (`rateLimit`,
 * core/ratelimit/) caps throughput. Full → "full", limited → "rate-limited": answers, not errors.
 * Backpressure is logged (WARN) when waiting events reach `backpressureThreshold` % of `maxSize`.
 * `stop()` refuses new events and waits until every accepted one has been handled, so shutdown
 * loses nothing that got a 202.
 */

import type { AcceptedEvent } from "../../audit/accepted-event.ts";
import { EventQueueUnavailableError } from "../../audit/queue-errors.ts";
import { createDurationWindow } from "../../duration-window.ts";
import type {
  AcceptedEventHandler,
  Clock,
  EnqueueResult,
  EventQueue,
  EventQueueMetrics,
  Logger,
  Stoppable,
} from "../../ports.ts";
import { createFixedWindowCounter } from "../../ratelimit/index.ts";

export interface InProcessEventQueueOptions {
  maxSize: number;
  maxConcurrent: number;
  /** Percent of maxSize at which backpressure is reported. */
  backpressureThreshold: number;
  rateLimit: { enable: boolean; maxPerMinute: number };
}

export interface InProcessEventQueueDeps {
  handler: AcceptedEventHandler;
  logger: Logger;
  clock: Clock;
}

export interface InProcessEventQueue extends EventQueue, Stoppable {
  metrics(): EventQueueMetrics;
  /** Resolves once nothing waits and nothing runs. */
  drain(): Promise<void>;
}

const MINUTE_MS = 60_000;

export function createInProcessEventQueue(
  options: InProcessEventQueueOptions,
  deps: InProcessEventQueueDeps,
): InProcessEventQueue {
  const { handler, logger, clock } = deps;
  // FIFO with a moving head: O(1) take without Array#shift.
  let waiting: AcceptedEvent[] = [];
  let head = 0;
  let running = 0;
  let stopping = false;
  let idleWaiters: Array<() => void> = [];

  // The one fixed-window rule of Steward (windows aligned to the epoch minute).
  const rateLimit = options.rateLimit.enable
    ? createFixedWindowCounter({ limit: options.rateLimit.maxPerMinute })
    : undefined;

  let backpressureActive = false;
  let lastBackpressureWarnAt = 0;

  const processingTimes = createDurationWindow();
  const counters = {
    received: 0,
    queued: 0,
    processed: 0,
    failed: 0,
    droppedRateLimit: 0,
    droppedQueueFull: 0,
  };

  const waitingCount = () => waiting.length - head;

  const takeGlobalRateSlot = (): boolean => rateLimit === undefined || rateLimit.tryTake(clock.now());

  function checkBackpressure(): void {
    const utilisation = (waitingCount() / options.maxSize) * 100;
    const now = clock.now();
    if (utilisation >= options.backpressureThreshold) {
      if (!backpressureActive || now - lastBackpressureWarnAt >= MINUTE_MS) {
        backpressureActive = true;
        lastBackpressureWarnAt = now;
        logger.warn("Audit event queue backpressure", {
          waiting: waitingCount(),
          maxSize: options.maxSize,
          utilisationPct: Math.round(utilisation),
          running,
        });
      }
    } else if (backpressureActive && utilisation < options.backpressureThreshold * 0.8) {
      backpressureActive = false;
      logger.info("Audit event queue backpressure cleared", { waiting: waitingCount() });
    }
  }

  async function runOne(event: AcceptedEvent): Promise<void> {
    const started = clock.now();
    try {
      await handler(event);
      counters.processed += 1;
    } catch (error) {
      counters.failed += 1;
      logger.error("Audit event processing failed", {
        eventId: event.envelope.eventId,
        type: event.envelope.type,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      processingTimes.record(clock.now() - started);
    }
  }

  function pump(): void {
    while (running < options.maxConcurrent && waitingCount() > 0) {
      const event = waiting[head] as AcceptedEvent;
      waiting[head] = undefined as unknown as AcceptedEvent;
      head += 1;
      if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      running += 1;
      void runOne(event).then(() => {
        running -= 1;
        if (backpressureActive) checkBackpressure();
        pump();
      });
    }
    if (running === 0 && waitingCount() === 0 && idleWaiters.length > 0) {
      const resolvers = idleWaiters;
      idleWaiters = [];
      for (const resolve of resolvers) resolve();
    }
  }

  return {
    async enqueue(event): Promise<EnqueueResult> {
      if (stopping) throw new EventQueueUnavailableError("audit event queue is stopping");
      counters.received += 1;
      if (!takeGlobalRateSlot()) {
        counters.droppedRateLimit += 1;
        return "rate-limited";
      }
      if (waitingCount() >= options.maxSize) {
        counters.droppedQueueFull += 1;
        checkBackpressure();
        return "full";
      }
      waiting.push(event);
      counters.queued += 1;
      checkBackpressure();
      pump();
      return "queued";
    },

    metrics() {
      const times = processingTimes.stats();
      return {
        ...counters,
        droppedTotal: counters.droppedRateLimit + counters.droppedQueueFull,
        // Events wait in memory, so no event is too large for this queue.
        droppedSize: 0,
        waiting: waitingCount(),
        maxSize: options.maxSize,
        running,
        utilisationPct: (waitingCount() / options.maxSize) * 100,
        backpressureActive,
        processingTimeAvgMs: times.avgMs,
        processingTimeP95Ms: times.p95Ms,
        processingTimeMaxMs: times.maxMs,
      };
    },

    drain() {
      if (running === 0 && waitingCount() === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },

    async stop() {
      stopping = true;
      await this.drain();
    },
  };
}
