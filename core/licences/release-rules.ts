/**
 * Which unused access licences may be released: the rules of `licenseRelease.neverRelease`,
 * applied to one licence and the user it is allocated to. A licence is kept when the user is
 * listed by directory and id, carries a listed tag or custom property value, belongs to a listed
 * directory, or has an inactive / blocked / removed-externally flag that a `yes` or `no` rule
 * protects; directory and id compare without regard to case, as the platform's user directories
 * do. A quarantined licence is never released (the platform is already taking it back), nor one
 * used after the cut-off, whatever the repository's filter let through.
 */
import type { ReleaseFlagRule } from "../config/index.ts";

export type ReleasableType = "professional" | "analyzer";

/** An allocated access licence as `GET /qrs/license/<type>accesstype/full` lists it. */
export interface AccessLicenceEntry {
  readonly id: string;
  readonly userRepositoryId: string;
  /** Epoch ms; undefined when the repository gave no readable time. */
  readonly lastUsedMs: number | undefined;
  readonly quarantined: boolean;
}

/** The user a licence is allocated to, as `GET /qrs/user/<id>` describes them. */
export interface LicenceUser {
  readonly userDirectory: string;
  readonly userId: string;
  readonly inactive: boolean;
  readonly blocked: boolean;
  readonly removedExternally: boolean;
  readonly tags: readonly string[];
  readonly customProperties: readonly { readonly name: string; readonly value: string }[];
}

export interface NeverReleaseRules {
  readonly user: readonly { readonly userDir: string; readonly userId: string }[];
  readonly tag: readonly string[];
  readonly customProperty: readonly { readonly name: string; readonly value: string }[];
  readonly userDirectory: readonly string[];
  readonly inactive: ReleaseFlagRule;
  readonly blocked: ReleaseFlagRule;
  readonly removedExternally: ReleaseFlagRule;
}

const DAY_MS = 86_400_000;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function flagKeeps(rule: ReleaseFlagRule, flag: boolean): boolean {
  return (rule === "yes" && flag) || (rule === "no" && !flag);
}

/** Why the user's licence is kept, or undefined when no rule protects it. */
export function keepReason(user: LicenceUser, rules: NeverReleaseRules): string | undefined {
  if (rules.user.some((u) => same(u.userDir, user.userDirectory) && same(u.userId, user.userId)))
    return "listed in neverRelease.user";
  const tag = rules.tag.find((name) => user.tags.includes(name));
  if (tag !== undefined) return `has the tag "${tag}"`;
  const property = rules.customProperty.find((cp) =>
    user.customProperties.some((own) => own.name === cp.name && own.value === cp.value),
  );
  if (property !== undefined) return `has the custom property ${property.name}=${property.value}`;
  if (rules.userDirectory.some((directory) => same(directory, user.userDirectory)))
    return `user directory ${user.userDirectory} is in neverRelease.userDirectory`;
  if (flagKeeps(rules.inactive, user.inactive)) return `inactive is ${user.inactive ? "yes" : "no"}`;
  if (flagKeeps(rules.blocked, user.blocked)) return `blocked is ${user.blocked ? "yes" : "no"}`;
  if (flagKeeps(rules.removedExternally, user.removedExternally))
    return `removed externally is ${user.removedExternally ? "yes" : "no"}`;
  return undefined;
}

/**
 * The last moment a licence may have been used and still be released: the end (UTC) of the day
 * `thresholdDays` before today. UTC, so that the same configuration selects the same licences
 * whatever the time zone of the machine Steward runs on.
 */
export function releaseCutoffMs(nowMs: number, thresholdDays: number): number {
  const startOfToday = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return startOfToday - (thresholdDays - 1) * DAY_MS - 1;
}

/** Whole days since the licence was last used. */
export function daysSinceLastUse(lastUsedMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - lastUsedMs) / DAY_MS));
}

/** Why an entry from the repository's list is not a release candidate, or undefined when it is. */
export function entrySkipReason(entry: AccessLicenceEntry, cutoffMs: number): string | undefined {
  if (entry.quarantined) return "quarantined";
  if (entry.lastUsedMs === undefined) return "no readable last-used time";
  if (entry.lastUsedMs > cutoffMs) return "used after the cut-off";
  return undefined;
}
