/**
 * A wait on the injected clock that ends early, rejecting, when `signal` aborts: the retries of
 * task-event lookups wait between attempts, and a shutdown must not wait for them.
 */
import { PlatformCallAbortedError } from "../platform/index.ts";
import type { Clock } from "../ports.ts";

export function abortableWait(ms: number, clock: Clock, signal: AbortSignal | undefined): Promise<void> {
  const aborted = () => new PlatformCallAbortedError("lookup given up: Steward is stopping");
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
