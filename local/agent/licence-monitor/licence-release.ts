/**
 * What the licence monitor does around a release pass (core/licences/release-pass.ts): which
 * types it covers, the counter `steward_license_releases_total{license_type,outcome}` (`released`,
 * `would_release` in a dry run, `kept`, `failed`), and the log lines that say, after every pass,
 * what was released and what was not: one INFO line per licence released or, in a dry run, that
 * would have been, one WARN line per licence that failed and per type whose list could not be read,
 * and a summary line with the counts, which says so when Steward stopping cut the pass short.
 */
import type { LicenseMonitorConfig } from "../../../core/config/index.ts";
import type { ReleasableType, ReleaseOutcomeKind, ReleaseSummary } from "../../../core/licences/index.ts";
import type { Logger, MetricsRegistry } from "../../../core/ports.ts";

const OUTCOMES: readonly ReleaseOutcomeKind[] = ["released", "would_release", "kept", "failed"];
const TYPES: readonly ReleasableType[] = ["professional", "analyzer"];

/** The enabled types, professional first (as Butler), each with its threshold. */
export function releaseTypes(release: LicenseMonitorConfig["licenseRelease"]) {
  return TYPES.filter((type) => release.licenseType[type].enable).map((type) => ({
    type,
    thresholdDays: release.licenseType[type].releaseThresholdDays,
  }));
}

/** Declares the counter; the returned function counts one licence's outcome. */
export function declareReleaseCounter(
  metrics: MetricsRegistry,
): (type: ReleasableType, outcome: ReleaseOutcomeKind) => void {
  const counts = new Map<string, number>();
  metrics.counter({
    name: "steward_license_releases_total",
    help: "Access licences the release looked at since start, by type and outcome (would_release: a dry run)",
    labelNames: ["license_type", "outcome"],
    collect: () =>
      TYPES.flatMap((type) =>
        OUTCOMES.flatMap((outcome) => {
          const value = counts.get(`${type} ${outcome}`);
          return value === undefined ? [] : [{ labels: { license_type: type, outcome }, value }];
        }),
      ),
  });
  return (type, outcome) => {
    const key = `${type} ${outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
}

export function logReleaseSummary(logger: Logger, summary: ReleaseSummary): void {
  for (const unread of summary.unreadTypes) {
    logger.warn(`no ${unread.type} licence was released: the list of licences could not be read`, {
      error: unread.reason,
    });
  }
  const tally = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as Record<
    ReleaseOutcomeKind,
    number
  >;
  for (const outcome of summary.outcomes) {
    tally[outcome.outcome] += 1;
    const fields = {
      licenseType: outcome.type,
      user: outcome.user,
      daysSinceLastUse: outcome.daysSinceLastUse ?? "unknown",
    };
    if (outcome.outcome === "released") logger.info("access licence released", fields);
    else if (outcome.outcome === "would_release")
      logger.info("dry run: this access licence would be released", fields);
    else if (outcome.outcome === "failed")
      logger.warn("access licence not released", { ...fields, error: outcome.reason ?? "" });
    else logger.verbose("access licence kept", { ...fields, reason: outcome.reason ?? "" });
  }
  const pass = summary.dryRun ? "licence release dry run" : "licence release";
  logger.info(summary.stopped ? `${pass} stopped at shutdown` : `${pass} done`, {
    ...tally,
    unreadTypes: summary.unreadTypes.map((unread) => unread.type).join(",") || "none",
  });
}
