/**
 * The wait between attempts of a task-event lookup (the execution result, the script log):
 * given up, as a PlatformCallAbortedError, when Steward stops.
 */
import { PlatformCallAbortedError } from "../platform/index.ts";
import type { Clock } from "../ports.ts";
import { abortableWait } from "../shared/abortable-wait.ts";

export function lookupWait(ms: number, clock: Clock, signal: AbortSignal | undefined): Promise<void> {
  return abortableWait(
    ms,
    clock,
    signal,
    () => new PlatformCallAbortedError("lookup given up: Steward is stopping"),
  );
}
