/**
 * Opens something on the local disk (the durable audit log, the key-value store, the schedule
 * store) as soon as it can be opened. What cannot be opened at start because of its environment
 * (a read-only file system, a regular file in the way, no permission, no space) does not stop
 * Steward: the rest starts, the users of the thing refuse meanwhile (503), and opening is tried
 * again every `retryMs`. The first failure is one ERROR naming the place and the OS's reason;
 * later attempts are logged at DEBUG, unless the reason changes (a new ERROR). An INFO says when
 * it opened after failing, and for how long it was closed.
 *
 * A failure that `retryable` rejects (damaged content of our own, which waiting does not repair)
 * on the first attempt rejects the start, as before; on a later attempt it is logged and retried.
 *
 * What failed while open can be given up (`reopen`): it is closed and opened again in the same
 * way, its users refusing meanwhile.
 *
 * Stopping waits for an attempt in flight and closes what is open.
 */
import type { Clock, LogFields, Logger, Stoppable, TimerHandle } from "../../ports.ts";

export interface RetryingOpenerMessages {
  /** ERROR on the first failure (and when the reason changes). */
  cannotOpen: string;
  /** DEBUG on every later failure with the same reason. */
  stillCannotOpen: string;
  /** INFO once it opened after failing. */
  opened: string;
  /** ERROR when a `whenOpen` listener throws. */
  listenerFailed: string;
  /** ERROR when what was open failed and is opened again (`reopen`). */
  failedWhileOpen?: string;
}

export interface RetryingOpenerOptions<T> {
  open(): Promise<T>;
  close(opened: T): Promise<void>;
  /** Whether waiting may cure this failure (default: always). */
  retryable?(error: unknown): boolean;
  /** What the log lines name (e.g. `{directory}` or `{file}`). */
  fields: LogFields;
  messages: RetryingOpenerMessages;
  clock: Clock;
  logger: Logger;
  /** Time between two attempts (default 5000 ms). */
  retryMs?: number;
}

/** Why it is closed: the last attempt's error and when the first attempt failed. */
export interface OpenProblem {
  readonly reason: string;
  readonly sinceMs: number;
}

export interface RetryingOpener<T> extends Stoppable {
  /** What is open; undefined while it cannot be opened. */
  current(): T | undefined;
  /** Why it is closed; undefined once it is open. */
  problem(): OpenProblem | undefined;
  /** Calls `listener` once it is open (at once if it is). */
  whenOpen(listener: (opened: T) => void): void;
  /**
   * `failed` (what `current()` gave) can no longer be used (a write failed: a disk turned
   * read-only or full): it is closed and opened again as at start, every `retryMs`, from what is
   * on disk. Nothing happens when it was already given up or the opener is stopping.
   */
  reopen(failed: T, error: unknown): void;
}

export const DEFAULT_OPEN_RETRY_MS = 5000;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * True when an error (or one of its causes) comes from a system call (`open`, `mkdir`, `write`…
 * refused by the OS): the environment's fault, which may pass. Content errors (JSON, YAML, a
 * record that does not parse) carry no system call.
 */
export function isEnvironmentError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 10; depth += 1) {
    if (typeof (current as NodeJS.ErrnoException).syscall === "string") return true;
    current = current.cause;
  }
  return false;
}

/** Tries to open once before resolving; rejects only for a first failure `retryable` rejects. */
export async function startRetryingOpener<T>(options: RetryingOpenerOptions<T>): Promise<RetryingOpener<T>> {
  const { clock, logger, fields, messages } = options;
  const retryMs = options.retryMs ?? DEFAULT_OPEN_RETRY_MS;
  let opened: T | undefined;
  let problem: OpenProblem | undefined;
  let failedAttempts = 0;
  let timer: TimerHandle | undefined;
  let attempt: Promise<void> = Promise.resolve();
  let stopped = false;
  let listeners: Array<(opened: T) => void> = [];

  function failed(error: unknown): void {
    failedAttempts += 1;
    const reason = describe(error);
    const logged = { ...fields, error: reason, retryInMs: retryMs };
    if (problem?.reason === reason) logger.debug(messages.stillCannotOpen, logged);
    else logger.error(messages.cannotOpen, logged);
    problem = { reason, sinceMs: problem?.sinceMs ?? clock.now() };
    if (!stopped) timer = clock.setTimeout(retry, retryMs);
  }

  async function succeeded(result: T): Promise<void> {
    if (stopped) {
      await options.close(result).catch(() => undefined);
      return;
    }
    opened = result;
    if (problem !== undefined) {
      logger.info(messages.opened, { ...fields, closedForMs: clock.now() - problem.sinceMs, failedAttempts });
    }
    problem = undefined;
    failedAttempts = 0;
    const waiting = listeners;
    listeners = [];
    for (const listener of waiting) {
      try {
        listener(result);
      } catch (error) {
        // Never a rejection nobody awaits (a retry runs on a timer).
        logger.error(messages.listenerFailed, { ...fields, error: describe(error) });
      }
    }
  }

  async function tryOpen(): Promise<void> {
    let result: T;
    try {
      result = await options.open();
    } catch (error) {
      failed(error);
      return;
    }
    await succeeded(result);
  }

  function retry(): void {
    timer = undefined;
    attempt = tryOpen();
  }

  // The first attempt: a failure that waiting cannot cure fails the start.
  let first: { result: T } | undefined;
  try {
    first = { result: await options.open() };
  } catch (error) {
    if (options.retryable !== undefined && !options.retryable(error)) throw error;
    failed(error);
  }
  if (first !== undefined) await succeeded(first.result);

  let stopping: Promise<void> | undefined;
  let closing: Promise<void> = Promise.resolve();
  return {
    current: () => opened,
    problem: () => problem,
    whenOpen(listener) {
      if (opened !== undefined) listener(opened);
      else listeners.push(listener);
    },
    reopen(failed, error) {
      if (stopped || opened !== failed) return;
      opened = undefined;
      const reason = describe(error);
      logger.error(messages.failedWhileOpen ?? messages.cannotOpen, {
        ...fields,
        error: reason,
        retryInMs: retryMs,
      });
      problem = { reason, sinceMs: clock.now() };
      closing = options.close(failed).catch((closeError: unknown) => {
        logger.debug("Closing what failed failed too", { ...fields, error: describe(closeError) });
      });
      // Opened again only once it is closed (one owner of the files at a time).
      attempt = closing.then(() => {
        if (!stopped) timer = clock.setTimeout(retry, retryMs);
      });
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (timer !== undefined) clock.clearTimeout(timer);
        timer = undefined;
        await attempt;
        await closing;
        listeners = [];
        if (opened !== undefined) await options.close(opened);
      })();
      return stopping;
    },
  };
}
