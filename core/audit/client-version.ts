/**
 * Audit client version: header normalisation and the compatibility matrix. Strict semver (no loose
 * parsing); pre-release and non-semver client versions are incompatible.
 */

import semver from "semver";

/** One row of `auditEvents.compatibility`. */
export interface CompatibilityRule {
  serverRange: string;
  clientRange: string;
}

/**
 * A version header as one value: duplicate header lines arrive joined by `,` (Fetch `Headers`),
 * the first value wins, trimmed; empty means "no version".
 */
export function normaliseVersionHeader(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const comma = value.indexOf(",");
  const first = (comma === -1 ? value : value.slice(0, comma)).trim();
  return first === "" ? undefined : first;
}

/** Whether `clientVersion` may talk to `serverVersion` under `rules` (first matching server row). */
export function isClientVersionCompatible(
  serverVersion: string,
  clientVersion: string,
  rules: readonly CompatibilityRule[],
): boolean {
  const server = semver.valid(serverVersion);
  const client = semver.valid(clientVersion);
  if (server === null || client === null) return false;
  if (semver.prerelease(client) !== null) return false;
  const rule = rules.find((r) => semver.satisfies(server, r.serverRange));
  if (rule === undefined) return false;
  return semver.satisfies(client, rule.clientRange);
}

const MEMO_LIMIT = 256;

/**
 * `isClientVersionCompatible` for one server version and matrix, remembering recent answers:
 * clients send few distinct versions, and semver range matching is the costliest step of an
 * accepted request. The memo is bounded (cleared when full) so hostile version strings cannot
 * grow it.
 */
export function createCompatibilityCheck(
  serverVersion: string,
  rules: readonly CompatibilityRule[],
): (clientVersion: string) => boolean {
  const memo = new Map<string, boolean>();
  return function isCompatible(clientVersion) {
    const known = memo.get(clientVersion);
    if (known !== undefined) return known;
    const compatible = isClientVersionCompatible(serverVersion, clientVersion, rules);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(clientVersion, compatible);
    return compatible;
  };
}
