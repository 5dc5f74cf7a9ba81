/**
 * The full script log of every failed reload kept on disk (`taskEvents.scriptLogFiles`), as
 * Butler's `scriptLog.storeOnDisk` kept it: `<directory>/<YYYY-MM-DD>/<taskId>-<executionId>.log`,
 * the UTC date of the run (its start, or when the event came when the run's result is not
 * available). The log is the one the enrichment already downloaded for the alert, never fetched a
 * second time; when it is not available nothing is written, and the reason is logged. Aborted runs
 * are not kept: someone stopped them, and Butler kept failed runs only.
 *
 * Lines are written with CRLF ends, as the platform writes its script logs, so the file reads the
 * same as the one the management console offers. The name is made of GUIDs (the datagram's ids
 * are checked as GUIDs before any event gets here) and is checked against Windows' rules all the
 * same, so it is valid on both systems.
 *
 * A write that fails (a full disk, a read-only or missing directory, no permission) never stops
 * the alert and never stops Steward: it is counted (`steward_script_logs_total{outcome="failed"}`),
 * shown with its reason on the status page, and said at WARN at most once a minute per reason with
 * the count since the last line. After each write the size cap is checked (script-log-retention.ts).
 */

import { type Enriched, foundValue, type ScriptLog, type TaskAlert } from "../alerts/index.ts";
import { windowsNameProblem } from "../files/windows-names.ts";
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger, MetricsRegistry, ScriptLogFolder } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";

export const SCRIPT_LOG_OUTCOMES = ["written", "not_available", "failed"] as const;
export type ScriptLogOutcome = (typeof SCRIPT_LOG_OUTCOMES)[number];

/** What the status page shows of the files written since start. */
export interface ScriptLogFileStats {
  directory: string;
  written: number;
  notAvailable: number;
  failed: number;
  lastError?: { at: string; message: string };
}

export interface ScriptLogFilesDeps {
  readonly folder: ScriptLogFolder;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: MetricsRegistry | undefined;
  /** Called after each file written with its size (the size cap's check). */
  readonly afterWrite?: (bytes: number) => void;
  /** The counter's name; the Qlik Cloud runs' files are counted apart from the site's. */
  readonly metricName?: string;
}

/** One run's log to keep: its date folder, its file name, the log and the fields its log lines carry. */
export interface ScriptLogEntry {
  readonly date: string;
  readonly name: string;
  readonly scriptLog: Enriched<ScriptLog>;
  readonly fields: Readonly<Record<string, string>>;
}

export interface ScriptLogFiles {
  /** Writes the alert's script log when it is a failed reload's; resolves once done, never rejects. */
  keep(alert: TaskAlert): Promise<ScriptLogOutcome | undefined>;
  /** Writes one run's log (a Qlik Cloud run's); resolves once done, never rejects. */
  store(entry: ScriptLogEntry): Promise<ScriptLogOutcome>;
  stats(): ScriptLogFileStats;
}

/** Before this, a start time is the repository's "never" (1753-01-01), not a run's. */
const EARLIEST_RUN_MS = Date.UTC(2000, 0, 1);

/** The UTC date folder of the run: its start, or when its event came. */
export function runDate(alert: TaskAlert): string {
  const startMs = Date.parse(foundValue(alert.execution)?.startTime ?? "");
  const ms = startMs >= EARLIEST_RUN_MS ? startMs : alert.event.receivedAtMs;
  return new Date(ms).toISOString().slice(0, 10);
}

/** `<taskId>-<executionId>.log`; a run the appender sent without an execution id is named by when it came. */
export function scriptLogFileName(alert: TaskAlert): string {
  const { taskId, executionId, receivedAtMs } = alert.event;
  return `${taskId}-${executionId === "" ? `received-${receivedAtMs}` : executionId}.log`;
}

export function createScriptLogFiles(deps: ScriptLogFilesDeps): ScriptLogFiles {
  const { folder, clock, logger } = deps;
  const stats: ScriptLogFileStats = { directory: folder.directory, written: 0, notAvailable: 0, failed: 0 };
  const counts = new Map<ScriptLogOutcome, number>(SCRIPT_LOG_OUTCOMES.map((outcome) => [outcome, 0]));
  deps.metrics?.counter({
    name: deps.metricName ?? "steward_script_logs_total",
    help:
      "Script logs of failed reloads kept on disk (taskEvents.scriptLogFiles, qlikCloud.scriptLogFiles): written, not_available " +
      "(the log could not be downloaded, nothing written), failed (the write failed: full disk, permissions)",
    labelNames: ["outcome"],
    collect: () => [...counts].map(([outcome, value]) => ({ labels: { outcome }, value })),
  });
  const warnings = createLogThrottle();

  function count(outcome: ScriptLogOutcome): ScriptLogOutcome {
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    if (outcome === "written") stats.written += 1;
    else if (outcome === "failed") stats.failed += 1;
    else stats.notAvailable += 1;
    return outcome;
  }

  function failed(entry: ScriptLogEntry, file: string, error: unknown): ScriptLogOutcome {
    const message = describeError(error);
    stats.lastError = { at: new Date(clock.now()).toISOString(), message };
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "other";
    const since = warnings.admit(code, clock.now());
    const fields = { ...entry.fields, file, directory: folder.directory, error: message };
    const text =
      "the script log of a failed reload could not be kept on disk (the alert went out all the same)";
    if (since === undefined) logger.debug(text, fields);
    else logger.warn(text, { ...fields, failuresSinceLastLine: since });
    return count("failed");
  }

  async function store(entry: ScriptLogEntry): Promise<ScriptLogOutcome> {
    const { date, name } = entry;
    const file = `${date}/${name}`;
    if (!entry.scriptLog.available) {
      logger.info("the script log of a failed reload is not available: no file written", {
        ...entry.fields,
        reason: entry.scriptLog.reason,
      });
      return count("not_available");
    }
    const problem = windowsNameProblem(name);
    if (problem !== undefined) return failed(entry, file, new Error(`the file name ${name} ${problem}`));
    const { lines } = entry.scriptLog.value;
    const text = lines.length === 0 ? "" : `${lines.join("\r\n")}\r\n`;
    try {
      await folder.write(date, name, text);
    } catch (error) {
      return failed(entry, file, error);
    }
    logger.verbose("script log of a failed reload kept", { ...entry.fields, file });
    deps.afterWrite?.(Buffer.byteLength(text));
    return count("written");
  }

  return {
    async keep(alert) {
      if (alert.kind !== "reloadTaskFailure") return undefined;
      return store({
        date: runDate(alert),
        name: scriptLogFileName(alert),
        scriptLog: alert.scriptLog,
        fields: { task: alert.event.taskName, executionId: alert.event.executionId },
      });
    },
    store,
    stats: () => ({ ...stats }),
  };
}
