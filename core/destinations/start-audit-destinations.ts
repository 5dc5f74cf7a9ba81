/**
 * The local consumer: one batcher per selected destination, all fed every accepted event (the
 * fan-out is fixed at start). The in-process queue calls `handleEvent` per event; the durable
 * queue reads its log once per destination and calls `deliver`, and hears through `onDone` when a
 * destination has written a batch. `stop()` flushes every batcher. `abandon()` gives up on all of
 * them at once (the shutdown's deadline): then `stop()` rejects with UnwrittenEventsError naming
 * what each did not write, events handed to `handleEvent` after it included (they are counted,
 * not failed one by one: the in-process queue hands out all it holds as it stops).
 */
import type { AcceptedEvent } from "../audit/index.ts";
import type { Clock, Logger, Stoppable } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import {
  type Batcher,
  type BatcherStats,
  BatcherStoppedError,
  startBatcher,
  UnwrittenEventsError,
} from "./batcher.ts";
import type { SelectedDestination } from "./select-destinations.ts";

export interface AuditDestinations extends Stoppable {
  /** Hands the event to every destination's batcher; resolves once all have buffered it. */
  handleEvent(event: AcceptedEvent): Promise<void>;
  /** The selected destinations' names, in selection order. */
  readonly names: readonly string[];
  /** Hands the event to one destination's batcher (the durable queue reads the log per destination). */
  deliver(destination: string, event: AcceptedEvent): Promise<void>;
  stats(): Record<string, BatcherStats>;
  /** Gives up on every destination at once: no write in flight is awaited any longer. */
  abandon(): void;
}

export interface StartAuditDestinationsOptions {
  destinations: readonly SelectedDestination[];
  clock: Clock;
  logger: Logger;
  initialRetryDelayMs?: number;
  stopTimeoutMs?: number;
  /** Hears of each batch a destination is done with (written or refused), in order. */
  onDone?: (destination: string, events: readonly AcceptedEvent[]) => void;
  /** Told of every failed write of a destination. Must not throw. */
  onWriteError?: (destination: string, error: unknown) => void;
}

export async function startAuditDestinations(
  options: StartAuditDestinationsOptions,
): Promise<AuditDestinations> {
  const { clock, logger, onDone, onWriteError } = options;
  await Promise.all(
    options.destinations.map(async ({ destination }) => {
      try {
        await destination.prepare?.();
      } catch (error) {
        // Not fatal: the destination prepares again before its first write.
        logger.error("preparing audit destination failed; will retry before the first write", {
          destination: destination.name,
          error: describeError(error),
        });
      }
    }),
  );
  const batchers: [string, Batcher][] = options.destinations.map(({ destination, batching }) => [
    destination.name,
    startBatcher({
      destination,
      clock,
      logger: logger.child(`audit-${destination.name}`),
      ...batching,
      ...(options.initialRetryDelayMs === undefined
        ? {}
        : { initialRetryDelayMs: options.initialRetryDelayMs }),
      ...(options.stopTimeoutMs === undefined ? {} : { stopTimeoutMs: options.stopTimeoutMs }),
      ...(onDone === undefined
        ? {}
        : { onDone: (events: readonly AcceptedEvent[]) => onDone(destination.name, events) }),
      ...(onWriteError === undefined
        ? {}
        : { onWriteError: (error: unknown) => onWriteError(destination.name, error) }),
    }),
  ]);
  const byName = new Map(batchers);
  let stopped: Promise<void> | undefined;
  let abandoned = false;
  /** Events handed to a destination after it was abandoned, by destination. */
  const notTaken = new Map<string, number>();
  const countIfAbandoned = (name: string, error: unknown) => {
    if (!abandoned || !(error instanceof BatcherStoppedError)) throw error;
    notTaken.set(name, (notTaken.get(name) ?? 0) + 1);
  };
  /** A destination's outcome of stop(), with the events it was handed after it was abandoned. */
  const unwritten = (name: string, result: PromiseSettledResult<void>): unknown[] => {
    const late = notTaken.get(name) ?? 0;
    if (result.status === "fulfilled") return late === 0 ? [] : [new UnwrittenEventsError(name, late)];
    const error = result.reason;
    if (late === 0 || !(error instanceof UnwrittenEventsError)) return [error];
    return [new UnwrittenEventsError(name, error.unwritten + late, { cause: error.cause })];
  };
  return {
    async handleEvent(event) {
      await Promise.all(
        batchers.map(([name, batcher]) => batcher.add(event).catch((error) => countIfAbandoned(name, error))),
      );
    },
    names: batchers.map(([name]) => name),
    deliver(destination, event) {
      const batcher = byName.get(destination);
      if (batcher === undefined)
        return Promise.reject(new Error(`no audit destination named ${destination}`));
      return batcher.add(event);
    },
    stats: () => Object.fromEntries(batchers.map(([name, batcher]) => [name, batcher.stats()])),
    abandon() {
      abandoned = true;
      for (const [, batcher] of batchers) batcher.abandon();
    },
    stop() {
      stopped ??= Promise.allSettled(batchers.map(([, batcher]) => batcher.stop())).then((results) => {
        const errors = results.flatMap((result, i) =>
          unwritten((batchers[i] as [string, Batcher])[0], result),
        );
        if (errors.length === 1) throw errors[0];
        if (errors.length > 1)
          throw new AggregateError(errors, "several audit destinations kept events unwritten");
      });
      return stopped;
    },
  };
}

/** The handler the local in-process queue calls for each accepted event. */
export function createAcceptedEventHandler(
  destinations: AuditDestinations,
): (event: AcceptedEvent) => Promise<void> {
  return async function handleAcceptedEvent(event) {
    await destinations.handleEvent(event);
  };
}
