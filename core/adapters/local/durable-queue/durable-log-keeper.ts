/**
 * Opens the durable audit log (durable-log.ts) as soon as it can be opened (retrying-opener.ts).
 * A queue directory that cannot be created or opened at start (a read-only file system, a regular
 * file in the way, no permission, no space) does not stop Steward: the rest starts, the queue
 * answers 503 while the log is closed (recovering-event-queue.ts), and opening is tried again
 * every `retryMs`. The first failure is one ERROR naming the directory and the OS's reason; later
 * attempts are logged at DEBUG, unless the reason changes (a new ERROR). An INFO says when the
 * log opened after failing, and for how long it was closed.
 *
 * Stopping waits for an attempt in flight and closes the log if it is open: start this before
 * the destinations and stop it after them, so that their last cursors are persisted.
 */
import type { Stoppable } from "../../../ports.ts";
import { type OpenProblem, startRetryingOpener } from "../retrying-opener.ts";
import { type DurableLog, type DurableLogOptions, openDurableLog } from "./durable-log.ts";

export { DEFAULT_OPEN_RETRY_MS } from "../retrying-opener.ts";

export interface DurableLogKeeperOptions extends DurableLogOptions {
  /** Time between two attempts to open the log (default 5000 ms). */
  retryMs?: number;
}

export interface DurableLogKeeperDeps {
  /** Opens the log (default: openDurableLog); tests inject failures. */
  open?: (options: DurableLogOptions) => Promise<DurableLog>;
}

/** Why the log is closed: the last attempt's error and when the first attempt failed. */
export type LogProblem = OpenProblem;

export interface DurableLogKeeper extends Stoppable {
  /** The open log; undefined while it cannot be opened. */
  log(): DurableLog | undefined;
  /** Why the log is closed; undefined once it is open. */
  problem(): LogProblem | undefined;
  /** Calls `listener` with the log once it is open (at once if it is). */
  whenOpen(listener: (log: DurableLog) => void): void;
}

/** Tries to open the log once before resolving; never rejects. */
export async function startDurableLogKeeper(
  options: DurableLogKeeperOptions,
  deps: DurableLogKeeperDeps = {},
): Promise<DurableLogKeeper> {
  const open = deps.open ?? openDurableLog;
  const opener = await startRetryingOpener({
    open: () => open(options),
    close: (log) => log.close(),
    fields: { directory: options.directory },
    messages: {
      cannotOpen: "Audit event queue cannot open its log; ingest answers 503 until it can",
      stillCannotOpen: "Audit event queue: its log still cannot be opened",
      opened: "Audit event queue: its log is open; events are accepted again",
      listenerFailed: "Audit event queue: starting over its opened log failed",
    },
    clock: options.clock,
    logger: options.logger,
    ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
  });
  return {
    log: () => opener.current(),
    problem: () => opener.problem(),
    whenOpen: (listener) => opener.whenOpen(listener),
    stop: () => opener.stop(),
  };
}
