/**
 * A wait on the injected clock that ends early when `signal` aborts, rejecting with `aborted()`:
 * retries wait between their attempts (the task-event lookups in the repository, the calls to a
 * Qlik Cloud tenant), and a shutdown must not wait for them. The caller names the error, so that
 * the wait fails as the call it belongs to.
 */
import type { Clock } from "../ports.ts";

export function abortableWait(
  ms: number,
  clock: Clock,
  signal: AbortSignal | undefined,
  aborted: () => Error,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted());
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(aborted());
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
