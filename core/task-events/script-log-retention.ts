/**
 * How long and how much of the kept script logs stay (`taskEvents.scriptLogFiles.retentionDays`
 * and `maxTotalBytes`), checked at start, every hour, and after a write that takes the total over
 * the cap:
 * - by age: a date folder goes once its whole day lies more than `retentionDays` days in the past
 *   (with 30, the folder of 1 March goes during 1 April, UTC);
 * - by size: while the files left add up to more than `maxTotalBytes`, the oldest go first (by
 *   date folder, then by when each was written), so the newest failures, the ones an operator
 *   is looking for, are the last to go.
 *
 * What a round removed is said in one INFO line and counted in
 * `steward_script_logs_removed_total{reason}` (age, size); a file or directory that cannot be
 * read or removed is said at WARN at most once a minute, and the next round tries again. Rounds
 * never overlap: one asked for while another runs follows it.
 */

import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger, MetricsRegistry, ScriptLogFileEntry, ScriptLogFolder } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";

export const RETENTION_INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface ScriptLogRetentionSettings {
  readonly retentionDays: number;
  readonly maxTotalBytes: number;
}

export interface ScriptLogRetentionDeps {
  readonly folder: ScriptLogFolder;
  readonly settings: ScriptLogRetentionSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: MetricsRegistry | undefined;
  /** The counter's name; the Qlik Cloud runs' files are counted apart from the site's. */
  readonly metricName?: string;
}

export interface ScriptLogRetention {
  /** One round now (after the one running, if any); resolves when it is done, never rejects. */
  prune(): Promise<void>;
  /** A file of `bytes` was written: a round follows when the total is over the cap. */
  added(bytes: number): void;
  /** Files and bytes kept, as of the last round and the writes since. */
  stats(): { files: number; bytes: number };
  /** A round at once, then one every hour until `stop`. */
  start(): Promise<void>;
  /** Ends the hourly rounds and waits for the one running. */
  stop(): Promise<void>;
}

/** The `YYYY-MM-DD` before which date folders are removed. */
export function oldestKeptDate(nowMs: number, retentionDays: number): string {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return new Date(today - retentionDays * DAY_MS).toISOString().slice(0, 10);
}

/** The files a round removes, by reason, oldest first. */
export function filesToRemove(
  entries: readonly ScriptLogFileEntry[],
  settings: ScriptLogRetentionSettings,
  nowMs: number,
): { age: ScriptLogFileEntry[]; size: ScriptLogFileEntry[] } {
  const oldest = oldestKeptDate(nowMs, settings.retentionDays);
  const age = entries.filter((entry) => entry.date < oldest);
  const kept = entries
    .filter((entry) => entry.date >= oldest)
    .sort(
      (a, b) => a.date.localeCompare(b.date) || a.modifiedMs - b.modifiedMs || a.name.localeCompare(b.name),
    );
  let total = kept.reduce((sum, entry) => sum + entry.bytes, 0);
  const size: ScriptLogFileEntry[] = [];
  for (const entry of kept) {
    if (total <= settings.maxTotalBytes) break;
    size.push(entry);
    total -= entry.bytes;
  }
  return { age, size };
}

export function createScriptLogRetention(deps: ScriptLogRetentionDeps): ScriptLogRetention {
  const { folder, settings, clock, logger } = deps;
  const removed = { age: 0, size: 0 };
  deps.metrics?.counter({
    name: deps.metricName ?? "steward_script_logs_removed_total",
    help: "Kept script logs removed by age (retentionDays) or by size (maxTotalBytes, oldest first)",
    labelNames: ["reason"],
    collect: () => Object.entries(removed).map(([reason, value]) => ({ labels: { reason }, value })),
  });
  const warnings = createLogThrottle();
  const kept = { files: 0, bytes: 0 };
  let running: Promise<void> = Promise.resolve();
  let pending: Promise<void> | undefined;
  let timer: ReturnType<Clock["setTimeout"]> | undefined;
  let stopped = false;

  function warn(text: string, error: unknown): void {
    const since = warnings.admit(text, clock.now());
    const fields = { directory: folder.directory, error: describeError(error) };
    if (since === undefined) logger.debug(text, fields);
    else logger.warn(text, { ...fields, timesSinceLastLine: since });
  }

  async function removeAll(entries: readonly ScriptLogFileEntry[], reason: "age" | "size") {
    let files = 0;
    let bytes = 0;
    for (const entry of entries) {
      try {
        await folder.remove(entry);
        files += 1;
        bytes += entry.bytes;
        removed[reason] += 1;
      } catch (error) {
        warn("a kept script log could not be removed; the next round tries again", error);
      }
    }
    return { files, bytes };
  }

  async function round(): Promise<void> {
    let entries: readonly ScriptLogFileEntry[];
    try {
      entries = await folder.list();
    } catch (error) {
      warn("the kept script logs could not be listed; the next round tries again", error);
      return;
    }
    const chosen = filesToRemove(entries, settings, clock.now());
    const byAge = await removeAll(chosen.age, "age");
    const bySize = await removeAll(chosen.size, "size");
    kept.files = entries.length - byAge.files - bySize.files;
    kept.bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0) - byAge.bytes - bySize.bytes;
    if (byAge.files + bySize.files > 0) {
      logger.info("kept script logs removed", {
        directory: folder.directory,
        olderThanRetention: byAge.files,
        overSizeCap: bySize.files,
        bytesFreed: byAge.bytes + bySize.bytes,
        filesKept: kept.files,
        bytesKept: kept.bytes,
      });
    }
  }

  function prune(): Promise<void> {
    // A round asked for while one waits to run is that same round.
    pending ??= running
      .then(() => {
        pending = undefined;
        return round();
      })
      // A round that fails in a way not foreseen must not reject a promise nobody awaits.
      .catch((error: unknown) => warn("a round of the script logs' retention failed", error));
    running = pending;
    return pending;
  }

  function arm(): void {
    if (stopped) return;
    timer = clock.setTimeout(() => {
      void prune().then(arm);
    }, RETENTION_INTERVAL_MS);
  }

  return {
    prune,
    added(bytes) {
      kept.files += 1;
      kept.bytes += bytes;
      if (kept.bytes > settings.maxTotalBytes) void prune();
    },
    stats: () => ({ ...kept }),
    async start() {
      await prune();
      arm();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      await running;
    },
  };
}
