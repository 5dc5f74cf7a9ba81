/**
 * Composition root of the local / on-prem runtime. `startLocal` reads top to bottom in the order
 * the parts start; each part is started with what the earlier ones returned, and its stop goes
 * on a stack (start-in-order.ts), so the parts stop in reverse and a start that fails part-way
 * stops what already runs. Every adapter is chosen here, once, from the config. The parts live
 * beside it: local/audit/ (ingest and its destinations), local/rest/ (the REST API's stores and
 * clients), local/agent/ (the on-prem agent's parts); local/http/ holds the listeners and
 * local/cli/ the command line.
 */
import { createMemoryAppNameCache } from "../core/adapters/local/memory-app-name-cache.ts";
import { createPromMetricsRegistry } from "../core/adapters/prometheus/prom-metrics-registry.ts";
import type { Config } from "../core/config/index.ts";
import { createStatusBoard, declareHttpRefusedMetric } from "../core/monitoring/index.ts";
import type { Clock, Logger } from "../core/ports.ts";
import { declareRateLimitedMetric } from "../core/ratelimit/index.ts";
import { systemClock } from "../core/system-clock.ts";
import { SERVICE_VERSION } from "../core/version.ts";
import { alertsOn, noAlerts, startAlerts } from "../functions/alerts/alerts-part.ts";
import type { AgentPart } from "./agent/agent-part.ts";
import { appNamesPart } from "./agent/app-names.ts";
import { configUiPart } from "./agent/config-ui.ts";
import { containerHealthPart } from "./agent/container-health.ts";
import { heartbeatPart } from "./agent/heartbeat.ts";
import { licenseMonitorPart } from "./agent/licence-monitor/licence-monitor.ts";
import { platformPollingPart } from "./agent/platform-polling.ts";
import { scrapeEndpointPart } from "./agent/scrape-endpoint.ts";
import { serviceMonitorPart } from "./agent/service-monitor/service-monitor.ts";
import { startAgentParts } from "./agent/start-agent.ts";
import { systemInfoPart } from "./agent/system-info.ts";
import { taskEventsPart } from "./agent/task-events/task-events-part.ts";
import { telemetryPart } from "./agent/telemetry.ts";
import { udpEventsPart } from "./agent/udp-events.ts";
import { uptimeMonitorPart } from "./agent/uptime-monitor.ts";
import { startAuditParts } from "./audit/audit-parts.ts";
import { brokerConnection } from "./broker-connection.ts";
import { brokerTaskStartsPart } from "./broker-task-starts.ts";
import { startQlikCloudInput } from "./qlik-cloud/qlik-cloud-input.ts";
import { startRestApi } from "./rest/rest-api.ts";
import { createShutdownSchedule, type ShutdownSchedule } from "./shutdown-budget.ts";
import { type RunningParts, startInOrder } from "./start-in-order.ts";
import { startsTasksFromBroker, taskStartRules } from "./task-start-rules.ts";

export interface LocalDeps {
  clock: Clock;
  /** Relative paths in the config (export directories, stores) resolve from here. */
  cwd: string;
  /** The configuration file's tree as written, `${ENV}` unresolved (the config UI); default: the running config. */
  configTree?: unknown;
  /** `--log-level`, when given (the config UI shows it as `logLevel`). */
  logLevelOverride?: string | undefined;
  /** The shutdown's deadlines and exit status (main.ts reads it); one of its own otherwise. */
  shutdown?: ShutdownSchedule;
}

/**
 * The on-prem agent's parts, in start order (stopped in reverse), each started when its switch
 * is on. A new part is a file exporting an AgentPart (local/agent/agent-part.ts) and a line here.
 */
const AGENT_PARTS: readonly AgentPart[] = [
  systemInfoPart,
  // Before the UDP events, so that the first fetch's names are there for the first events.
  appNamesPart,
  udpEventsPart,
  platformPollingPart,
  taskEventsPart,
  licenseMonitorPart,
  serviceMonitorPart,
  heartbeatPart,
  uptimeMonitorPart,
  telemetryPart,
  // After every part that declares metrics: it serves once they all have, and stops before them.
  scrapeEndpointPart,
  configUiPart,
  // After every listener it probes; on shutdown it stops first.
  containerHealthPart,
];

/**
 * Starts every part; stopping them begins the shutdown schedule (local/shutdown-budget.ts), so
 * its deadlines count from the moment stop() is called (main.ts calls it on the signal), and the
 * listeners that take work stop accepting it right then, before any part stops.
 */
export async function startLocal(
  config: Config,
  logger: Logger,
  deps: LocalDeps = { clock: systemClock, cwd: process.cwd() },
): Promise<RunningParts> {
  const { clock, cwd } = deps;
  const shutdown = deps.shutdown ?? createShutdownSchedule(clock);
  // The metrics the scrape endpoint publishes (the audit queue declares its counters there too).
  const metrics = createPromMetricsRegistry({ defaultMetrics: true });
  // Filled by every part as it starts, read by the config UI's /status.
  const status = createStatusBoard({ version: SERVICE_VERSION, clock });
  // One metric for every listener's rate limit (ingest, REST, config UI); each running listener
  // counts under its own label.
  const rateLimited = declareRateLimitedMetric(metrics);
  // And one for what every listener refuses before answering (Host, time limits, connection cap).
  const httpRefused = declareHttpRefusedMetric(metrics);
  // One broker connection for the REST API and the agent, built (not connected) before anything
  // starts: an unreadable TLS file fails here, with nothing to stop.
  const broker = brokerConnection(config, logger, cwd);
  // One start filter and one count for the REST API's task start and the broker's start topic.
  const taskStarts = taskStartRules(config, metrics, logger);
  const running = await startInOrder(logger, async (parts) => {
    // The alert clients and destinations, built once for every producer of alerts (task events,
    // the licence monitor, the Qlik Cloud tenants) and started before them, so that they stop
    // after the last alert.
    const alerts = alertsOn(config)
      ? (await parts.add({ name: "alerts", start: () => startAlerts({ config, logger, clock, metrics }) }))
          .dispatcher
      : noAlerts(clock, logger.child("alerts"));
    // Started before the Qlik Cloud inputs, the REST API and the agent, so it stops after all of
    // them have flushed, and the runs an earlier start left are published when handed on.
    if (broker !== undefined) await parts.add(broker.part);
    // Before the ingest API's listener, which serves the tenants' webhooks, so it stops after it.
    const qlikCloud = config.qlikCloud.enable
      ? await parts.start("qlik-cloud", () =>
          startQlikCloudInput({
            config,
            logger,
            clock,
            cwd,
            metrics,
            status,
            alerts,
            broker: broker?.client,
          }),
        )
      : undefined;
    const audit = await startAuditParts(config, logger, {
      clock,
      cwd,
      metrics,
      status,
      shutdown,
      parts,
      ...(config.auditEvents.enable
        ? { countRateLimited: rateLimited.counter("ingest"), countRefused: httpRefused.counter("ingest") }
        : {}),
      qlikCloudWebhooks: qlikCloud?.webhooks,
    });
    const rest = await startRestApi(config, logger, {
      clock,
      cwd,
      broker: broker?.client,
      taskStarts,
      countRateLimited: config.restServer.enable ? rateLimited.counter("rest") : undefined,
      countRefused: config.restServer.enable ? httpRefused.counter("rest") : undefined,
      status,
      parts,
      shutdown,
    });
    // After the REST API, so it stops first; the broker connection it subscribes on stops last.
    if (broker !== undefined && taskStarts !== undefined && startsTasksFromBroker(config)) {
      await parts.add(
        brokerTaskStartsPart(config, logger, { clock, cwd, broker: broker.client, rules: taskStarts }),
      );
    }
    await startAgentParts(parts, AGENT_PARTS, {
      config,
      logger,
      clock,
      cwd,
      metrics,
      rateLimited,
      httpRefused,
      // App names by app id: the app-name poller fills it, UDP event enrichment and health polling read it.
      appNames: createMemoryAppNameCache(),
      status,
      healthProbes: [...audit.healthProbes, ...rest.healthProbes],
      configTree: deps.configTree ?? { Service: config },
      logLevelOverride: deps.logLevelOverride,
      alerts,
      broker: broker?.client,
      shutdown,
    });
  });
  return {
    names: running.names,
    async stop() {
      shutdown.begin();
      try {
        await running.stop();
      } finally {
        shutdown.dispose();
      }
    },
  };
}
