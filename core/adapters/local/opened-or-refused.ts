/**
 * What a store's callers get while its file is opened in the background (retrying-opener.ts):
 * the open store, or a StoreUnavailableError (503 with Retry-After at the REST edge) while it
 * cannot be opened. `availability()` is what the status page and the container health check
 * show, in the shape of the audit queue's (`audit.queue`): the state after the last attempt.
 */
import { StoreUnavailableError } from "../../store-unavailable-error.ts";
import type { RetryingOpener } from "./retrying-opener.ts";

export interface StoreAvailability {
  state: "available" | "unavailable";
  file: string;
  /** Why calls are refused (absent when available). */
  reason?: string;
  /** Since when (ISO time). */
  since?: string;
  /** Calls refused (503) since then. */
  refused?: number;
}

export interface OpenedOrRefused<T> {
  /** The open store; throws StoreUnavailableError while it cannot be opened. */
  use(): T;
  availability(): StoreAvailability;
}

export interface OpenedOrRefusedOptions {
  /** The store's file, as the status names it. */
  file: string;
  /** What a refused client is told, e.g. "Key-value store temporarily unavailable". */
  refusal: string;
  /** The `Retry-After` of a refusal: the time between two attempts to open. */
  retryAfterSeconds: number;
}

export function openedOrRefused<T>(
  opener: RetryingOpener<T>,
  options: OpenedOrRefusedOptions,
): OpenedOrRefused<T> {
  let refused = 0;
  return {
    use() {
      const opened = opener.current();
      if (opened !== undefined) return opened;
      refused += 1;
      throw new StoreUnavailableError(options.refusal, options.retryAfterSeconds);
    },
    availability() {
      const problem = opener.current() === undefined ? opener.problem() : undefined;
      if (problem === undefined) return { state: "available", file: options.file };
      return {
        state: "unavailable",
        file: options.file,
        reason: problem.reason,
        since: new Date(problem.sinceMs).toISOString(),
        refused,
      };
    },
  };
}
