/**
 * The local queue of an agent whose events go to a cloud queue (SQS, `cloud.eventQueueUrl`):
 * each accepted event is handed to the target queue while the request waits, so a 202 means the
 * cloud queue acknowledged it and nothing waits in this process. It adds what the local runtime
 * needs of a queue: counters for the scrape endpoint, the status page and the queue metrics
 * (`processed` = acknowledged by the target; `failed` = refused or unreachable, the client got
 * a 503 or 500; `droppedSize` = larger than the target takes, 413), the send times as processing
 * times, and `stop()`, which refuses new events and waits for the sends in flight.
 */
import { EventQueueUnavailableError } from "../../core/audit/index.ts";
import { createDurationWindow } from "../../core/duration-window.ts";
import type { Clock, EnqueueResult, EventQueue } from "../../core/ports.ts";
import type { LocalEventQueue } from "./local-ingest.ts";

export function createForwardingQueue(target: EventQueue, deps: { clock: Clock }): LocalEventQueue {
  const { clock } = deps;
  const counters = { received: 0, queued: 0, processed: 0, failed: 0, droppedSize: 0 };
  const processingTimes = createDurationWindow();
  let running = 0;
  let stopping = false;
  let idleWaiters: Array<() => void> = [];

  function settle(started: number): void {
    processingTimes.record(clock.now() - started);
    running -= 1;
    if (running === 0) {
      const resolvers = idleWaiters;
      idleWaiters = [];
      for (const resolve of resolvers) resolve();
    }
  }

  const drain = () =>
    running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));

  return {
    async enqueue(event, envelopeJson): Promise<EnqueueResult> {
      if (stopping) throw new EventQueueUnavailableError("audit event queue is stopping");
      counters.received += 1;
      running += 1;
      const started = clock.now();
      try {
        const result = await target.enqueue(event, envelopeJson);
        if (result === "queued") {
          counters.queued += 1;
          counters.processed += 1;
        } else if (result === "too-large") {
          counters.droppedSize += 1;
        }
        return result;
      } catch (error) {
        counters.failed += 1;
        throw error;
      } finally {
        settle(started);
      }
    },
    metrics() {
      const times = processingTimes.stats();
      return {
        ...counters,
        droppedTotal: counters.droppedSize,
        droppedRateLimit: 0,
        droppedQueueFull: 0,
        waiting: 0,
        maxSize: 0,
        running,
        utilisationPct: 0,
        backpressureActive: false,
        processingTimeAvgMs: times.avgMs,
        processingTimeP95Ms: times.p95Ms,
        processingTimeMaxMs: times.maxMs,
      };
    },
    drain,
    async stop() {
      stopping = true;
      await drain();
    },
  };
}
