/**
 * One pass of releasing unused access licences: for each enabled type (professional first, then
 * analyzer, as Butler did) the repository's licences last used before the type's cut-off, each
 * looked at with its user against the never-release rules, and the rest released with one
 * repository call each, or, in a dry run, only reported. A failed call concerns only its licence
 * (or, for a failed list, its type): the pass goes on with the others, and its summary says of
 * every licence whether it was released, would have been, was kept (and why) or failed (and why).
 *
 * The signal stops the pass (Steward stopping): no call is made after it, and a list or user read
 * it gave up is no failure, only a licence not looked at; the summary says the pass `stopped`. A
 * release call it gave up is reported failed, since the repository may have carried it out.
 */
import { describeError } from "../shared/describe-error.ts";
import type { ReleasedLicence } from "./license-points.ts";
import type { LicenseSource } from "./license-source.ts";
import {
  daysSinceLastUse,
  entrySkipReason,
  keepReason,
  type NeverReleaseRules,
  type ReleasableType,
  releaseCutoffMs,
} from "./release-rules.ts";

export type ReleaseOutcomeKind = "released" | "would_release" | "kept" | "failed";

export interface ReleaseOutcome {
  readonly type: ReleasableType;
  readonly licenceId: string;
  /** `<userDirectory>\<userId>`, or the repository id of a user that could not be read. */
  readonly user: string;
  readonly daysSinceLastUse: number | undefined;
  readonly outcome: ReleaseOutcomeKind;
  /** Why it was kept or failed. */
  readonly reason?: string;
}

export interface ReleaseSummary {
  readonly dryRun: boolean;
  readonly outcomes: readonly ReleaseOutcome[];
  /** Types whose list could not be read, with the reason: none of their licences were looked at. */
  readonly unreadTypes: readonly { readonly type: ReleasableType; readonly reason: string }[];
  /** The signal stopped the pass before it looked at every licence. */
  readonly stopped: boolean;
}

export interface ReleasePassOptions {
  readonly source: LicenseSource;
  readonly rules: NeverReleaseRules;
  /** The enabled types in the order they are handled, each with its threshold. */
  readonly types: readonly { readonly type: ReleasableType; readonly thresholdDays: number }[];
  readonly dryRun: boolean;
  readonly nowMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Told of each licence actually released (the time-series point, the counter). */
  readonly onReleased: (released: ReleasedLicence) => void | Promise<void>;
}

export async function runReleasePass(options: ReleasePassOptions): Promise<ReleaseSummary> {
  const outcomes: ReleaseOutcome[] = [];
  const unreadTypes: { type: ReleasableType; reason: string }[] = [];
  const summary = (stopped: boolean) => ({ dryRun: options.dryRun, outcomes, unreadTypes, stopped });
  for (const { type, thresholdDays } of options.types) {
    if (options.signal?.aborted) return summary(true);
    const cutoff = releaseCutoffMs(options.nowMs, thresholdDays);
    let entries: Awaited<ReturnType<LicenseSource["accessLicences"]>>;
    try {
      entries = await options.source.accessLicences(type, new Date(cutoff).toISOString(), options.signal);
    } catch (error) {
      if (options.signal?.aborted) return summary(true);
      unreadTypes.push({ type, reason: describeError(error) });
      continue;
    }
    for (const entry of entries) {
      if (options.signal?.aborted) return summary(true);
      const skip = entrySkipReason(entry, cutoff);
      if (skip !== undefined) continue;
      const outcome = await handleEntry(options, type, entry.id, entry.userRepositoryId, entry.lastUsedMs);
      if (outcome === undefined) return summary(true);
      outcomes.push(outcome);
    }
  }
  return summary(false);
}

/** What became of one licence; undefined when the signal gave up reading its user (not looked at). */
async function handleEntry(
  options: ReleasePassOptions,
  type: ReleasableType,
  licenceId: string,
  userRepositoryId: string,
  lastUsedMs: number | undefined,
): Promise<ReleaseOutcome | undefined> {
  const days = lastUsedMs === undefined ? undefined : daysSinceLastUse(lastUsedMs, options.nowMs);
  const base = { type, licenceId, daysSinceLastUse: days };
  let user: Awaited<ReturnType<LicenseSource["user"]>>;
  try {
    user = await options.source.user(userRepositoryId, options.signal);
  } catch (error) {
    if (options.signal?.aborted) return undefined;
    return {
      ...base,
      user: userRepositoryId,
      outcome: "failed",
      reason: `user not read: ${describeError(error)}`,
    };
  }
  const name = `${user.userDirectory}\\${user.userId}`;
  const kept = keepReason(user, options.rules);
  if (kept !== undefined) return { ...base, user: name, outcome: "kept", reason: kept };
  if (options.dryRun) return { ...base, user: name, outcome: "would_release" };
  try {
    await options.source.release(type, licenceId, options.signal);
  } catch (error) {
    return { ...base, user: name, outcome: "failed", reason: describeError(error) };
  }
  await options.onReleased({ type, user: name, daysSinceLastUse: days ?? 0 });
  return { ...base, user: name, outcome: "released" };
}
