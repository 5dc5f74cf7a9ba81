/**
 * One reader per destination over the durable audit log. Each starts at its destination's cursor
 * (so at start-up everything the destination had not yet written is handed to it again, before
 * any new event) and follows the log as it grows, handing events to `deliver` in log order. Each
 * event handed out keeps where its record ends, so that its destination's cursor can move past it
 * once the destination reports it written. Once the queue stops, a reader hands out what the log
 * holds and ends; a reader whose destination was given up at the shutdown's deadline (it refuses
 * what it is handed) ends there without an error, the rest staying in the log. That holds also
 * when the deadline comes before the queue began stopping (a request still in flight held the
 * listener's stop until then): the destination given up is named once, at WARN with its backlog,
 * by whoever gave it up, since nothing is lost; an ERROR here would say the same thing twice and
 * louder. A reader that fails for any other reason while the queue runs is an ERROR.
 */
import type { AcceptedEvent } from "../../../audit/index.ts";
import { BatcherStoppedError } from "../../../destinations/index.ts";
import { createDurationWindow } from "../../../duration-window.ts";
import type { Clock, Logger } from "../../../ports.ts";
import type { AppendsInFlight } from "./appends-in-flight.ts";
import type { DurableLog } from "./durable-log.ts";

/** How much of the log one reader step decodes. */
const READ_BYTES = 256 * 1024;

export interface DestinationReadersDeps {
  log: DurableLog;
  destinations: readonly string[];
  /**
   * Hands one event to a destination (its batcher); resolves once it is buffered there. Rejects
   * with BatcherStoppedError once the destination takes no more (stopped, or given up at the
   * shutdown's deadline).
   */
  deliver(destination: string, event: AcceptedEvent): Promise<void>;
  logger: Logger;
  clock: Clock;
}

export class DestinationReaders {
  /** How long handing one event to one destination took (its batcher buffering it, or waiting for room). */
  readonly processingTimes = createDurationWindow();
  /** Where each handed-out event ends in the log, to move cursors when it is written. */
  private readonly ends = new WeakMap<AcceptedEvent, number>();
  private readonly endAtStart: number;
  /** Events appended since this start handed to each destination. */
  private readonly handedNew: Map<string, number>;
  /** Where each reader reads next; infinite once it stopped. */
  private readonly positions: Map<string, number>;
  private idleWaiters: Array<() => void> = [];
  private readonly running: Promise<void>[];

  constructor(
    private readonly deps: DestinationReadersDeps,
    /** Once stopping and finished, readers end when they reach the end of the log. */
    private readonly appends: AppendsInFlight,
    /** A reader stopped for good while the queue runs (counted as a failure). */
    private readonly failed: () => void,
  ) {
    const { log, destinations } = deps;
    this.endAtStart = log.end();
    this.handedNew = new Map(destinations.map((destination) => [destination, 0]));
    this.positions = new Map(destinations.map((destination) => [destination, log.cursor(destination)]));
    this.running = destinations.map((destination) =>
      this.follow(destination).catch((error: unknown) => this.stopped(destination, error)),
    );
  }

  /** Where a handed-out event's record ends; undefined for an event not handed out by a reader. */
  endOf(event: AcceptedEvent): number | undefined {
    return this.ends.get(event);
  }

  /** Of `queued` events appended since this start, how many every destination was handed. */
  handedToAll(queued: number): number {
    let least = queued;
    for (const count of this.handedNew.values()) least = Math.min(least, count);
    return this.deps.destinations.length === 0 ? queued : least;
  }

  /** Resolves once every event appended so far was handed to every destination. */
  drain(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      this.settleIdle();
    });
  }

  /** Resolves once every reader ended (after the queue began stopping). */
  async ended(): Promise<void> {
    await Promise.all(this.running);
  }

  private async follow(destination: string): Promise<void> {
    const { log, clock } = this.deps;
    let position = this.positions.get(destination) as number;
    for (;;) {
      if (position >= log.end()) {
        this.settleIdle();
        if (this.appends.finished) return;
        // stop() wakes this wait once no append is left (not Promise.race with a long-lived
        // promise: each race would leave a reaction on it, a leak at thousands of waits a second).
        await log.waitForEnd(position);
        continue;
      }
      const { records, next } = await log.read(position, READ_BYTES);
      for (const record of records) {
        const event =
          (record.value as AcceptedEvent | undefined) ??
          this.parse(record.payload ?? "", destination, record.end);
        if (event === undefined) {
          log.advance(destination, record.end);
          continue;
        }
        this.ends.set(event, record.end);
        const started = clock.now();
        await this.deps.deliver(destination, event);
        this.processingTimes.record(clock.now() - started);
        if (record.end > this.endAtStart)
          this.handedNew.set(destination, (this.handedNew.get(destination) ?? 0) + 1);
      }
      position = next;
      this.positions.set(destination, position);
      log.release(this.slowestPosition());
    }
  }

  private stopped(destination: string, error: unknown): void {
    const fields = { destination, error: error instanceof Error ? error.message : String(error) };
    this.positions.set(destination, Number.POSITIVE_INFINITY);
    this.settleIdle();
    // A destination given up at the shutdown's deadline refuses what is handed to it: expected,
    // and nothing is lost (the rest stays in the log for the next start).
    if (this.appends.stopping || error instanceof BatcherStoppedError) {
      this.deps.logger.debug(
        "Audit event queue: stopped handing events to a destination; the rest stays in the log",
        fields,
      );
      return;
    }
    this.failed();
    this.deps.logger.error(
      "Audit event queue: a destination stopped reading the log; it resumes at the next start",
      fields,
    );
  }

  private parse(payload: string, destination: string, end: number): AcceptedEvent | undefined {
    try {
      return JSON.parse(payload) as AcceptedEvent;
    } catch {
      // Unreachable unless the file was altered with a matching checksum: skip, never crash.
      this.deps.logger.warn("Audit event queue: skipped a log record that is not an event", {
        destination,
        end,
      });
      return undefined;
    }
  }

  private slowestPosition(): number {
    let slowest = Number.POSITIVE_INFINITY;
    for (const position of this.positions.values()) slowest = Math.min(slowest, position);
    return slowest;
  }

  private settleIdle(): void {
    if (this.idleWaiters.length === 0) return;
    const end = this.deps.log.end();
    for (const position of this.positions.values()) if (position < end) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
