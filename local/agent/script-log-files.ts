/**
 * The kept script logs of failed reloads (`taskEvents.scriptLogFiles`) as the task-event part
 * starts them: the directory from the configuration (relative to the working directory, checked
 * by the platform's path rules: no NUL byte, no UNC path off Windows, no name Windows refuses on
 * Windows, so a bad path refuses the start with its reason), the writes, and the retention's
 * rounds (at start, then hourly). A directory that cannot be written does not refuse the start:
 * a full or read-only disk is reported by each write (WARN, counted, status page) and the alerts
 * go out all the same. On the status page under `taskEvents.scriptLogFiles`.
 *
 * The Qlik Cloud input starts its own (`qlikCloud.scriptLogFiles`, the same settings in a
 * directory of its own): counted under `steward_qlik_cloud_script_logs_total` and
 * `steward_qlik_cloud_script_logs_removed_total`, shown under `scriptLogFiles.qlikCloud` (the
 * status board's `qlikCloud` section holds one entry per tenant).
 */
import { createScriptLogFolder } from "../../core/adapters/local/script-log-folder.ts";
import type { TaskEventsConfig } from "../../core/config/index.ts";
import { normalisePath, pathRulesFor } from "../../core/files/path-guard.ts";
import type { StatusBoard } from "../../core/monitoring/index.ts";
import type { Clock, Logger, MetricsRegistry, Stoppable } from "../../core/ports.ts";
import {
  createScriptLogFiles,
  createScriptLogRetention,
  type ScriptLogFiles,
} from "../../core/task-events/index.ts";

/** Whose files: the site's (`taskEvents`) or the Qlik Cloud tenants' (`qlikCloud`). */
export type ScriptLogOwner = "taskEvents" | "qlikCloud";

const METRIC_PREFIX: Record<ScriptLogOwner, string> = {
  taskEvents: "steward_script_logs",
  qlikCloud: "steward_qlik_cloud_script_logs",
};

export interface ScriptLogFilesPartDeps {
  readonly settings: TaskEventsConfig["scriptLogFiles"];
  /** Default `taskEvents`. */
  readonly owner?: ScriptLogOwner;
  readonly cwd: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: MetricsRegistry | undefined;
  readonly status?: StatusBoard | undefined;
}

export interface RunningScriptLogFiles extends Stoppable {
  readonly files: ScriptLogFiles;
}

/**
 * The directory as an absolute path by `platform`'s rules: `\` read as a separator, relative to
 * `cwd`, drive and UNC paths on Windows; throws an InvalidPathError naming the setting.
 */
export function scriptLogDirectory(
  directory: string,
  cwd: string,
  platform: NodeJS.Platform = process.platform,
  owner: ScriptLogOwner = "taskEvents",
): string {
  const rules = pathRulesFor(platform, () => cwd);
  return normalisePath(directory, `${owner}.scriptLogFiles.directory`, rules);
}

/** Undefined when switched off. */
export async function startScriptLogFiles(
  deps: ScriptLogFilesPartDeps,
): Promise<RunningScriptLogFiles | undefined> {
  const { settings, clock, metrics } = deps;
  if (!settings.enable) return undefined;
  const owner = deps.owner ?? "taskEvents";
  const prefix = METRIC_PREFIX[owner];
  const logger = deps.logger.child("script-logs");
  const folder = createScriptLogFolder(
    scriptLogDirectory(settings.directory, deps.cwd, process.platform, owner),
  );
  const retention = createScriptLogRetention({
    folder,
    settings,
    clock,
    logger,
    metrics,
    metricName: `${prefix}_removed_total`,
  });
  const files = createScriptLogFiles({
    folder,
    clock,
    logger,
    metrics,
    metricName: `${prefix}_total`,
    afterWrite: (bytes) => retention.added(bytes),
  });
  await retention.start();
  // The Qlik Cloud section of the status board is keyed by tenant: its files go in a section of their own.
  const [section, key] =
    owner === "taskEvents"
      ? (["taskEvents", "scriptLogFiles"] as const)
      : (["scriptLogFiles", owner] as const);
  deps.status?.set(section, key, () => ({ ...files.stats(), kept: retention.stats() }));
  logger.info(`script logs of failed reloads are kept on disk (${owner}.scriptLogFiles)`, {
    directory: folder.directory,
    retentionDays: settings.retentionDays,
    maxTotalBytes: settings.maxTotalBytes,
  });
  return { files, stop: () => retention.stop() };
}
