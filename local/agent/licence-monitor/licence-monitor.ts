/**
 * The licence monitor (`licenseMonitor.enable`): on its schedule (later.js text or cron, UTC;
 * once straight away at start) it reads the access licences, the server licence and the
 * platform's version over the platform client's certificate, and, when `licenseRelease.enable`,
 * releases access licences left unused (or, with `dryRun`, only says which it would release).
 *
 * Each reading goes to the time-series database and the server licence also to the broker, each
 * when the section's own switch and the destination's master switch are on
 * (core/config/license-monitor-destinations.ts), and all of it to the scrape endpoint's
 * `steward_license_*` gauges and the status page. A server licence that has expired or expires
 * within `serverLicense.alertDaysBefore` days is said once per run at WARN and handed to the
 * alerts part's dispatch as an expiry alert (core/alerts/licence-alert.ts); every run's reading of
 * the server licence goes there too, as a status alert for the recurring status webhook. One
 * reading that fails is logged, error-tracked and shown on the status page; the others still go
 * out.
 */
import {
  type AlertDispatcher,
  type DispatchAlert,
  LICENCE_EXPIRY_KIND,
  LICENCE_STATUS_KIND,
  type LicenceExpiryAlert,
  type LicenceStatusAlert,
  totalsKey,
} from "../../../core/alerts/index.ts";
import { licenseMonitorDestinations } from "../../../core/config/index.ts";
import {
  type AccessLicenceReading,
  accessLicencePoints,
  declareLicenceGauges,
  expiryAlertText,
  type LicenseSource,
  type ReleaseSummary,
  releasePoint,
  runReleasePass,
  type ServerLicenceReading,
  type StaticTags,
  serverLicenceMessages,
  serverLicencePoint,
  type VersionReading,
  versionPoint,
} from "../../../core/licences/index.ts";
import type { StatusBoard } from "../../../core/monitoring/index.ts";
import type { Stoppable } from "../../../core/ports.ts";
import { startRecurringTimer } from "../../../core/schedules/index.ts";
import type { BrokerMessage } from "../../../core/shared/broker-message.ts";
import { describeError } from "../../../core/shared/describe-error.ts";
import type { Point } from "../../../core/shared/line-protocol.ts";
import { parseRecurrence } from "../../../core/shared/recurrence.ts";
import { openLicenseSource } from "../../open-platform-client.ts";
import type { WritingPartDeps } from "../agent-connections.ts";
import type { WritingAgentPart } from "../agent-part.ts";
import { startMonitorDestinations } from "../monitor-destinations.ts";
import { readLicences } from "./licence-readings.ts";
import { declareReleaseCounter, logReleaseSummary, releaseTypes } from "./licence-release.ts";

/** The error-tracking type of a failed licence or version call. */
const ERROR_TYPE = "LICENSE_API";

export interface LicenseMonitorDeps
  extends Pick<WritingPartDeps, "config" | "logger" | "clock" | "cwd" | "metrics" | "connections"> {
  /** Tests inject one; by default it is opened from `platform.*`, `cert.*` and `licenseMonitor.version`. */
  source?: LicenseSource | undefined;
  /** Where the expiry alert and every run's status go besides the log and the broker: the alerts part's dispatch. */
  alerts?: DispatchAlert<LicenceExpiryAlert | LicenceStatusAlert> | undefined;
}

/** What the status page shows of the last run. */
export interface LicenseMonitorStatus {
  readonly runs: number;
  readonly lastRunAt: string | undefined;
  readonly accessLicences: readonly AccessLicenceReading[] | undefined;
  readonly serverLicence: (ServerLicenceReading & { alert: string | undefined }) | undefined;
  readonly version: VersionReading | undefined;
  readonly release: ReleaseSummary | undefined;
  /** The last run's failed readings: `accessLicences`, `serverLicence`, `version`. */
  readonly errors: Readonly<Record<string, string>>;
}

export interface LicenseMonitor extends Stoppable {
  status(): LicenseMonitorStatus;
}

export async function startLicenseMonitor(deps: LicenseMonitorDeps): Promise<LicenseMonitor> {
  const { config, clock, connections } = deps;
  const settings = config.licenseMonitor;
  const logger = deps.logger.child("licenses");
  const recurrence = parseRecurrence(settings.frequency);
  const source = deps.source ?? (await openLicenseSource(config, { clock, cwd: deps.cwd }));
  const writesTo = licenseMonitorDestinations(config);
  const { destinations, atShutdown: destinationsAtShutdown } = startMonitorDestinations(
    "license-monitor",
    writesTo,
    { config, clock, connections, logger },
  );
  const staticTags: StaticTags = Object.fromEntries(
    settings.timeseriesdb.tag.static.map((t) => [t.name, t.value]),
  );
  const countRelease = declareReleaseCounter(deps.metrics);
  const abort = new AbortController();
  let status: LicenseMonitorStatus = {
    runs: 0,
    lastRunAt: undefined,
    accessLicences: undefined,
    serverLicence: undefined,
    version: undefined,
    release: undefined,
    errors: {},
  };
  declareLicenceGauges(deps.metrics, () => ({ access: status.accessLicences, server: status.serverLicence }));

  async function run(): Promise<void> {
    const at = clock.now();
    const signal = abort.signal;
    const { access, server, version, errors } = await readLicences({
      source,
      settings,
      atMs: at,
      signal,
      onError(_name, what, error) {
        logger.error(`the ${what} could not be read`, { error: describeError(error) });
        connections.errors.record(ERROR_TYPE, config.platform.host, error);
      },
    });
    // A run given up at shutdown is not a finished one: the page and the gauges keep the last.
    if (signal.aborted) {
      logger.debug("the licence monitor run in flight ended with shutdown");
      return;
    }
    const alertDaysBefore = settings.serverLicense.alertDaysBefore;
    const alert = server && expiryAlertText(server, alertDaysBefore);
    const points: Point[] = [
      ...(access === undefined ? [] : accessLicencePoints(access, staticTags, at)),
      ...(server === undefined ? [] : [serverLicencePoint(server, staticTags, at)]),
      ...(version === undefined ? [] : [versionPoint(version, staticTags, at)]),
    ];
    const messages: BrokerMessage[] =
      server === undefined ? [] : serverLicenceMessages(server, settings.sendToMQTT, alertDaysBefore);
    status = {
      runs: status.runs + 1,
      lastRunAt: new Date(at).toISOString(),
      // A reading that failed keeps the last good one on the page and on the gauges (its error
      // says it is old): a failed reading must not make the expiry rule on the server licence's
      // gauges resolve as if the licence were fine. One switched off shows nothing.
      accessLicences: access ?? (errors.accessLicences === undefined ? undefined : status.accessLicences),
      serverLicence:
        server === undefined
          ? errors.serverLicence === undefined
            ? undefined
            : status.serverLicence
          : { ...server, alert },
      version: version ?? (errors.version === undefined ? undefined : status.version),
      release: status.release,
      errors,
    };
    if (server !== undefined) {
      await deps.alerts?.({
        kind: LICENCE_STATUS_KIND,
        ...pickLicence(server),
        at: new Date(at).toISOString(),
      });
    }
    if (server !== undefined && alert !== undefined) await raiseAlert(server, alert, at);
    await Promise.all([destinations.writePoints(points), destinations.writeMessages(messages)]);
    if (settings.licenseRelease.enable) await release(at, signal);
  }

  async function raiseAlert(server: ServerLicenceReading, text: string, at: number): Promise<void> {
    logger.warn(text, {
      expiryDate: server.expiryDate ?? "unknown",
      daysUntilExpiry: server.daysUntilExpiry ?? "unknown",
      alertDaysBefore: settings.serverLicense.alertDaysBefore,
    });
    await deps.alerts?.({
      kind: LICENCE_EXPIRY_KIND,
      state: server.expired || (server.daysUntilExpiry ?? 0) < 0 ? "expired" : "expiring",
      expiryDate: server.expiryDate,
      daysUntilExpiry: server.daysUntilExpiry,
      alertDaysBefore: settings.serverLicense.alertDaysBefore,
      text,
      at: new Date(at).toISOString(),
    });
  }

  async function release(at: number, signal: AbortSignal): Promise<void> {
    const release = settings.licenseRelease;
    const summary = await runReleasePass({
      source,
      rules: release.neverRelease,
      types: releaseTypes(release),
      dryRun: release.dryRun,
      nowMs: at,
      signal,
      onReleased: (released) => destinations.writePoints([releasePoint(released, staticTags, at)]),
    });
    for (const outcome of summary.outcomes) countRelease(outcome.type, outcome.outcome);
    for (const unread of summary.unreadTypes) {
      connections.errors.record(ERROR_TYPE, config.platform.host, new Error(unread.reason));
    }
    logReleaseSummary(logger, summary);
    if (!summary.stopped) status = { ...status, release: summary };
  }

  logger.info("licence monitor started", { frequency: settings.frequency, release: releaseMode(settings) });
  const timer = startRecurringTimer({
    what: "licence monitor run",
    recurrence,
    runAtStart: true,
    run,
    clock,
    logger,
  });
  return {
    status: () => status,
    async stop() {
      // Calls in flight are given up first, so the run in flight ends at once with what it has.
      abort.abort();
      await timer.stop();
      source.close();
      await destinationsAtShutdown.stop();
    },
  };
}

function pickLicence(server: ServerLicenceReading) {
  const { expired, expiryDate, daysUntilExpiry } = server;
  return { expired, expiryDate, daysUntilExpiry };
}

function releaseMode(settings: LicenseMonitorDeps["config"]["licenseMonitor"]): string {
  if (!settings.licenseRelease.enable) return "off";
  return settings.licenseRelease.dryRun ? "dry run" : "on";
}

/** The licence monitor as an agent part; its last run on the status page under `licenses`. */
export const licenseMonitorPart: WritingAgentPart = {
  name: "license-monitor",
  enabled: (config) => config.licenseMonitor.enable,
  writes: true,
  async start(deps) {
    const monitor = await startLicenseMonitor({ ...deps, alerts: deps.alerts.dispatch });
    deps.status.set("licenses", "monitor", () => monitor.status());
    if (deps.config.licenseMonitor.serverLicense.enable) showLicenceAlertStatus(deps.status, deps.alerts);
    return monitor;
  },
};

/**
 * Each alert destination's counts and last error of the server licence's alerts, under
 * `alertDestinations` as `<destination> (<kind>)`, apart from its task alerts.
 */
function showLicenceAlertStatus(status: StatusBoard, alerts: AlertDispatcher): void {
  for (const kind of [LICENCE_EXPIRY_KIND, LICENCE_STATUS_KIND] as const)
    for (const destination of alerts.destinations.filter((each) => each.handles(kind))) {
      const key = totalsKey(destination.name, kind);
      status.set("alertDestinations", key, () => alerts.totals(key));
    }
}
