/**
 * The durable event queue as ingest sees it, over a log that may be closed or failing:
 * - While the log cannot be opened (durable-log-keeper.ts retries), every event is refused with
 *   EventQueueUnavailableError naming the directory and the reason: ingest answers 503 with
 *   Retry-After and logs one ERROR a minute at most, with the count. Once the log opens, the
 *   durable queue (durable-event-queue.ts) starts over it, and its readers first hand the
 *   destinations whatever an earlier run left unwritten.
 * - An append the disk refuses (full, read-only, an I/O error) is refused the same way, the
 *   directory named; the log has undone it, and the next event tries again. The first event
 *   accepted after refusals is reported at INFO with how many were refused.
 * Nothing that got a 202 is affected: it was synced before the answer. `availability()` is what
 * the status page and the container health check show: the state after the last attempt;
 * `usage()` the open log's disk use and backlog (durable-event-queue.ts), undefined while closed.
 */
import { type AcceptedEvent, EventQueueUnavailableError } from "../../../audit/index.ts";
import type { Clock, EnqueueResult, EventQueueMetrics, Logger } from "../../../ports.ts";
import type { DurableEventQueue, DurableQueueUsage } from "./durable-event-queue.ts";
import type { DurableLog } from "./durable-log.ts";
import type { DurableLogKeeper } from "./durable-log-keeper.ts";

export interface RecoveringEventQueueDeps {
  keeper: DurableLogKeeper;
  /** The queue directory, as the errors and the status name it. */
  directory: string;
  /** Builds the durable queue over the log once it is open. */
  createQueue(log: DurableLog): DurableEventQueue;
  logger: Logger;
  clock: Clock;
}

export interface QueueAvailability {
  state: "available" | "unavailable";
  directory: string;
  /** Why events are refused (absent when available). */
  reason?: string;
  /** Since when (ISO time). */
  since?: string;
  /** Events refused (503) since then. */
  refused?: number;
}

export interface RecoveringEventQueue extends Omit<DurableEventQueue, "usage"> {
  availability(): QueueAvailability;
  usage(): DurableQueueUsage | undefined;
}

const EMPTY_METRICS: EventQueueMetrics = {
  received: 0,
  queued: 0,
  processed: 0,
  failed: 0,
  droppedTotal: 0,
  droppedRateLimit: 0,
  droppedQueueFull: 0,
  droppedSize: 0,
  waiting: 0,
  maxSize: 0,
  running: 0,
  utilisationPct: 0,
  backpressureActive: false,
  processingTimeAvgMs: 0,
  processingTimeP95Ms: 0,
  processingTimeMaxMs: 0,
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createRecoveringEventQueue(deps: RecoveringEventQueueDeps): RecoveringEventQueue {
  return new QueueOverClosableLog(deps);
}

class QueueOverClosableLog implements RecoveringEventQueue {
  private inner: DurableEventQueue | undefined;
  private stopping = false;
  /** Appends refused by the disk since the last one accepted. */
  private writeProblem: { reason: string; sinceMs: number; refused: number } | undefined;
  /** Events refused while the log was closed. */
  private refusedClosed = 0;
  /** Counted here, not by the durable queue: received while closed, refused while closed or failing. */
  private readonly own = { received: 0, failed: 0 };

  constructor(private readonly deps: RecoveringEventQueueDeps) {
    deps.keeper.whenOpen((log) => {
      if (!this.stopping) this.inner = deps.createQueue(log);
    });
  }

  async enqueue(event: AcceptedEvent, envelopeJson?: string): Promise<EnqueueResult> {
    if (this.stopping) throw new EventQueueUnavailableError("audit event queue is stopping");
    const queue = this.inner;
    if (queue === undefined) return this.refuseClosed();
    let result: EnqueueResult;
    try {
      result = await queue.enqueue(event, envelopeJson);
    } catch (error) {
      throw this.refusedWrite(error);
    }
    const { writeProblem } = this;
    if (result === "queued" && writeProblem !== undefined) {
      this.deps.logger.info("Audit event queue: its log is written again; events are accepted again", {
        directory: this.deps.directory,
        failingForMs: this.deps.clock.now() - writeProblem.sinceMs,
        refused: writeProblem.refused,
      });
      this.writeProblem = undefined;
    }
    return result;
  }

  written(destination: string, events: readonly AcceptedEvent[]): void {
    this.inner?.written(destination, events);
  }

  metrics(): EventQueueMetrics {
    const base = this.inner?.metrics() ?? EMPTY_METRICS;
    return { ...base, received: base.received + this.own.received, failed: base.failed + this.own.failed };
  }

  drain(): Promise<void> {
    return this.inner?.drain() ?? Promise.resolve();
  }

  usage(): DurableQueueUsage | undefined {
    return this.inner?.usage();
  }

  availability(): QueueAvailability {
    const { directory } = this.deps;
    const closed = this.deps.keeper.problem();
    if (this.inner === undefined && closed !== undefined) {
      return {
        state: "unavailable",
        directory,
        reason: `cannot open the log: ${closed.reason}`,
        since: new Date(closed.sinceMs).toISOString(),
        refused: this.refusedClosed,
      };
    }
    if (this.writeProblem !== undefined) {
      return {
        state: "unavailable",
        directory,
        reason: `cannot write the log: ${this.writeProblem.reason}`,
        since: new Date(this.writeProblem.sinceMs).toISOString(),
        refused: this.writeProblem.refused,
      };
    }
    return { state: "available", directory };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.inner?.stop();
  }

  private refuseClosed(): never {
    this.own.received += 1;
    this.own.failed += 1;
    this.refusedClosed += 1;
    const reason = this.deps.keeper.problem()?.reason ?? "it is not open yet";
    throw new EventQueueUnavailableError(
      `the audit event log in ${this.deps.directory} cannot be opened: ${reason}`,
    );
  }

  /** What an append the disk refused becomes: the same refusal, naming the directory; other errors as they are. */
  private refusedWrite(error: unknown): unknown {
    if (!(error instanceof EventQueueUnavailableError) || this.stopping) return error;
    this.own.failed += 1;
    const reason = describe(error.cause ?? error);
    this.writeProblem = {
      reason,
      sinceMs: this.writeProblem?.sinceMs ?? this.deps.clock.now(),
      refused: (this.writeProblem?.refused ?? 0) + 1,
    };
    return new EventQueueUnavailableError(
      `the audit event log in ${this.deps.directory} cannot be written: ${reason}`,
      {
        cause: error.cause ?? error,
      },
    );
  }
}
