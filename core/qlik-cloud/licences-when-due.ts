/**
 * A tenant's licences read by the scheduled polling function when they are due, on the licence
 * monitor's schedule (`licenseMonitor.frequency`), which the function's own schedule (every few
 * minutes) is much finer than: the reading is due when the tenant has none yet, or when an
 * occurrence of the schedule has come since the last one. The time of the last reading is kept
 * with the tenant's polling cursors (CloudCursorStore, input `licences`), so it lasts between
 * invocations and instances; it is written only once a reading succeeded, so a failed one is tried
 * again at the next invocation instead of a whole period later.
 */
import type { Clock, CloudCursorStore } from "../ports.ts";
import type { Recurrence } from "../shared/recurrence.ts";
import type { TenantLicences } from "./tenant-licences.ts";

/** The cursor store's input name of the last licence reading. */
export const LICENCES_CURSOR = "licences";

export interface LicencesWhenDue {
  readonly licences: TenantLicences;
  readonly tenant: string;
  readonly cursors: CloudCursorStore;
  readonly recurrence: Recurrence;
  readonly clock: Clock;
  readonly signal: AbortSignal;
}

export type LicenceReadingOutcome = "read" | "not_due" | "failed";

/** True when an occurrence of `recurrence` came after `lastReadMs`, up to `nowMs`. */
export function licencesDue(lastReadMs: number | undefined, recurrence: Recurrence, nowMs: number): boolean {
  if (lastReadMs === undefined) return true;
  const next = recurrence.next(lastReadMs);
  return next !== undefined && next <= nowMs;
}

export async function readLicencesWhenDue(options: LicencesWhenDue): Promise<LicenceReadingOutcome> {
  const { tenant, cursors, clock } = options;
  const now = clock.now();
  if (!licencesDue(await cursors.read(tenant, LICENCES_CURSOR), options.recurrence, now)) return "not_due";
  if (!(await options.licences.read(tenant, options.signal))) return "failed";
  await cursors.write(tenant, LICENCES_CURSOR, now);
  return "read";
}
