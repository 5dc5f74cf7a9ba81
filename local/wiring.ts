/**
 * Composition root of the local / on-prem runtime: picks one adapter per port from the config
 * and lists the services to start, in order (stopped in reverse). Everything here is chosen once,
 * at start. The service groups live beside it: local/audit/ (ingest and its destinations),
 * local/rest/ (the REST API's stores and clients), local/agent/ (the on-prem agent's parts);
 * local/http/ holds the listeners and local/cli/ the command line.
 */
import {
  createMemoryAppNameCache,
  type MemoryAppNameCache,
} from "../core/adapters/local/memory-app-name-cache.ts";
import { createMemoryRateLimitStore } from "../core/adapters/local/memory-rate-limit-store.ts";
import type { MqttPublisher } from "../core/adapters/mqtt.ts";
import {
  createPromMetricsRegistry,
  type PromMetricsRegistry,
} from "../core/adapters/prometheus/prom-metrics-registry.ts";
import { swaggerUiAssets } from "../core/adapters/swagger-ui-assets.ts";
import type { Config } from "../core/config/index.ts";
import { createStatusBoard, type StatusBoard } from "../core/monitoring/status-board.ts";
import type { Clock, ErrorRecorder, Logger, Service } from "../core/ports.ts";
import { declareRateLimitedMetric } from "../core/ratelimit/rate-limited-metric.ts";
import { systemClock } from "../core/system-clock.ts";
import { SERVICE_VERSION } from "../core/version.ts";
import { nodeClientIp } from "../functions/http/node-client-ip.ts";
import { createApp as createRestApp } from "../functions/rest/app.ts";
import { type AgentOutputs, startAgentOutputs } from "./agent/agent-outputs.ts";
import { type AppNames, startAppNames } from "./agent/app-names.ts";
import { startConfigUi } from "./agent/config-ui.ts";
import { startContainerHealth } from "./agent/container-health.ts";
import { startHeartbeat } from "./agent/heartbeat.ts";
import { type ListenerProbe, listenerProbes } from "./agent/listener-probes.ts";
import { platformPollingEnabled, startPlatformPolling } from "./agent/platform-polling.ts";
import { startScrapeEndpoint } from "./agent/scrape-endpoint.ts";
import { readSystemInfo } from "./agent/system-info.ts";
import { startTelemetry } from "./agent/telemetry.ts";
import { startUdpEvents, type UdpEvents, udpEventsEnabled } from "./agent/udp-events.ts";
import { udpListenerStatus } from "./agent/udp-status.ts";
import { startUptimeMonitor } from "./agent/uptime-monitor.ts";
import { auditServices } from "./audit/audit-services.ts";
import { brokerConnection } from "./broker-connection.ts";
import { startHttpListener } from "./http/http-listener.ts";
import { openPlatformClient } from "./open-platform-client.ts";
import { type LocalRestServices, startRestServices } from "./rest/rest-services.ts";
import { createShutdownSchedule, type ShutdownSchedule } from "./shutdown-budget.ts";
import { type NamedService, startInOrder } from "./start-in-order.ts";
import { trackService } from "./status/tracked-service.ts";

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

export function localServices(config: Config, logger: Logger, deps: LocalDeps): NamedService[] {
  // Shared by the agent's parts: the metrics the scrape endpoint publishes (the audit queue
  // declares its counters there too), and the app names the platform poller fills and UDP event
  // enrichment reads.
  // The status board is filled by every part as it starts and read by the config UI's /status.
  const agent: AgentShared = {
    metrics: createPromMetricsRegistry({ defaultMetrics: true }),
    appNames: createMemoryAppNameCache(),
    status: createStatusBoard({ version: SERVICE_VERSION, clock: deps.clock }),
    healthProbes: [],
  };
  // One broker connection for the REST API and the agent, started before both and stopped after.
  const broker = brokerConnection(config, logger, deps.cwd);
  // One metric for both HTTP APIs' rate limits; each running listener counts under its own label.
  const rateLimited = declareRateLimitedMetric(agent.metrics);
  return [
    ...auditServices(config, logger, {
      clock: deps.clock,
      cwd: deps.cwd,
      metrics: agent.metrics,
      status: agent.status,
      healthProbes: agent.healthProbes,
      ...(deps.shutdown === undefined ? {} : { shutdown: deps.shutdown }),
      ...(config.auditEvents.enable ? { countRateLimited: rateLimited.counter("ingest") } : {}),
    }),
    ...(broker === undefined ? [] : [broker.service]),
    ...restServices(
      config,
      logger,
      {
        ...deps,
        broker: broker?.publisher,
        countRateLimited: config.restServer.enable ? rateLimited.counter("rest") : undefined,
      },
      agent.status,
      agent.healthProbes,
    ),
    ...agentServices(config, logger, deps, { ...agent, broker: broker?.publisher }),
  ];
}

interface AgentShared {
  metrics: PromMetricsRegistry;
  appNames: MemoryAppNameCache;
  status: StatusBoard;
  /** What the container health check probes besides the listeners (the audit queue, the stores). */
  healthProbes: ListenerProbe[];
}

/** The process's broker connection (broker-connection.ts), when something publishes. */
interface BrokerDeps {
  broker: MqttPublisher | undefined;
}

/** Counts the REST API's requests refused by its rate limit (rate-limited-metric.ts). */
interface RestCountDeps {
  countRateLimited: (() => void) | undefined;
}

/**
 * The on-prem agent's long-running parts, each started only when its switch is on. The shared
 * outputs (time-series writer, and the process's broker connection, itself started earlier) start
 * before the parts that write to them and stop after them, once every part has flushed. The scrape endpoint comes last: it serves once
 * every part has declared its metrics, and on shutdown it stops first; the container health
 * check starts after every listener it probes and stops first.
 */
function agentServices(
  config: Config,
  logger: Logger,
  deps: LocalDeps,
  { broker, ...shared }: AgentShared & BrokerDeps,
): NamedService[] {
  const services: NamedService[] = [];
  if (config.systemInfo.enable) {
    services.push({
      name: "system-info",
      start: async () => {
        logger.info("host", { ...readSystemInfo() });
        return { stop: async () => undefined };
      },
    });
  }
  const udpOn = udpEventsEnabled(config);
  const pollingOn = platformPollingEnabled(config);
  const uptimeOn = config.uptimeMonitor.enable;
  let outputs: AgentOutputs | undefined;
  const started = (): AgentOutputs => {
    if (outputs === undefined) throw new Error("agent-outputs must start first");
    return outputs;
  };
  if (udpOn || pollingOn || uptimeOn || config.appNames.enableAppNameExtract || config.errorTracking.enable) {
    services.push({
      name: "agent-outputs",
      start: async () => {
        outputs = await startAgentOutputs(
          config,
          logger,
          shared.metrics,
          deps.cwd,
          deps.clock,
          shared.status,
          broker,
          deps.shutdown,
        );
        const errors = outputs.errors;
        if (config.errorTracking.enable) shared.status.setErrors(() => errors.counts());
        return outputs;
      },
    });
  }
  /** What a part that writes through the shared outputs is started with (after agent-outputs). */
  const partDeps = () => ({
    config,
    logger,
    clock: deps.clock,
    cwd: deps.cwd,
    ...shared,
    outputs: started(),
  });
  // Before the UDP events, so that the first fetch's names are there for the first events.
  const { status } = shared;
  if (config.appNames.enableAppNameExtract) {
    services.push(
      trackService(
        appNamesService(config, logger, deps, shared, () => started().errors),
        { board: status, section: "pollers", details: (names) => ({ ...names.stats() }) },
      ),
    );
  }
  if (udpOn) {
    services.push({
      name: "udp-events",
      start: async () => {
        const udp = await startUdpEvents(partDeps());
        showUdpStatus(status, udp);
        return udp;
      },
    });
  }
  if (pollingOn) {
    services.push({
      name: "platform-polling",
      start: async () => {
        const polling = await startPlatformPolling(partDeps());
        for (const [name, poller] of [
          ["health", polling.health],
          ["sessions", polling.sessions],
        ] as const) {
          if (poller !== undefined)
            status.set("pollers", name, () => ({ state: "running", ...poller.stats() }));
        }
        return polling;
      },
    });
  }
  if (config.heartbeat.enable) {
    services.push({
      name: "heartbeat",
      start: async () =>
        startHeartbeat({
          remoteURL: config.heartbeat.remoteURL,
          frequency: config.heartbeat.frequency,
          clock: deps.clock,
          logger: logger.child("heartbeat"),
          metrics: shared.metrics,
        }),
    });
  }
  if (uptimeOn) {
    services.push({
      name: "uptime-monitor",
      start: async () => startUptimeMonitor({ config, logger, clock: deps.clock, outputs: started() }),
    });
  }
  if (config.anonTelemetry) {
    services.push({
      name: "telemetry",
      start: () => startTelemetry({ config, cwd: deps.cwd, clock: deps.clock, logger }),
    });
  }
  const listening = (label: string) => ({
    board: status,
    section: "listeners" as const,
    label,
    runningState: "listening" as const,
  });
  if (config.scrapeEndpoint.enable) {
    services.push(
      trackService(
        {
          name: "scrape-endpoint",
          start: () =>
            startScrapeEndpoint({
              config: config.scrapeEndpoint,
              exposition: shared.metrics,
              logger: logger.child("scrape"),
            }),
        },
        listening("Scrape endpoint"),
      ),
    );
  }
  if (config.configVisualisation.enable) {
    services.push(
      trackService(
        {
          name: "config-ui",
          start: () =>
            startConfigUi({
              config,
              rawTree: deps.configTree ?? { Service: config },
              logLevel: deps.logLevelOverride,
              status,
              clock: deps.clock,
              logger,
            }),
        },
        listening("Config UI"),
      ),
    );
  }
  if (config.containerHealthCheck.enable) {
    services.push(
      trackService(
        {
          name: "container-health-check",
          start: () =>
            startContainerHealth({
              port: config.containerHealthCheck.port,
              probes: [...listenerProbes(config), ...shared.healthProbes],
              clock: deps.clock,
              logger: logger.child("health"),
            }),
        },
        listening("Container health check"),
      ),
    );
  }
  return services;
}

/** Each UDP queue's state and counters, its sinks' stats and the event counts on the status page. */
function showUdpStatus(status: StatusBoard, udp: UdpEvents): void {
  for (const view of [udp.userEvents, udp.logEvents]) {
    if (view === undefined) continue;
    const { queue, sinks, socket } = view;
    status.countEvents(() => queue.counters().received);
    status.set("udpQueues", queue.name, () => udpListenerStatus(view));
    status.set("listeners", `UDP ${queue.name}`, () => ({
      state: "listening",
      url: `udp://${socket.address}:${socket.port}`,
    }));
    for (const destination of Object.keys(sinks.stats())) {
      status.set("destinations", `${queue.name}.${destination}`, () => sinks.stats()[destination]);
    }
  }
  status.setEventCounts(() => udp.eventTotals());
}

/** The app-name poller on `appNames.hostIP`, with the platform client it owns. */
function appNamesService(
  config: Config,
  logger: Logger,
  deps: LocalDeps,
  shared: AgentShared,
  errors: () => ErrorRecorder,
): { name: string; start(): Promise<AppNames> } {
  return {
    name: "app-names",
    start: async () => {
      const host = config.appNames.hostIP;
      const client = await openPlatformClient(config, host, { logger, clock: deps.clock, cwd: deps.cwd });
      try {
        const poller = await startAppNames({
          listing: client,
          cache: shared.appNames,
          intervalMs: config.appNames.extractInterval,
          server: `${host}:${config.platform.repositoryPort}`,
          clock: deps.clock,
          logger: logger.child("app-names"),
          metrics: shared.metrics,
          errors: errors(),
        });
        return {
          stats: () => poller.stats(),
          async stop() {
            await poller.stop();
            client.close();
          },
        };
      } catch (error) {
        client.close();
        throw error;
      }
    },
  };
}

/**
 * The REST API's stores, scheduler and clients, then its listener (stopped first). A store file
 * that cannot be opened is on the status page (`stores`) and fails the container health check.
 */
function restServices(
  config: Config,
  logger: Logger,
  deps: LocalDeps & BrokerDeps & RestCountDeps,
  status: StatusBoard,
  healthProbes: ListenerProbe[],
): NamedService[] {
  const rest = config.restServer;
  if (!rest.enable) return [];
  let backing: LocalRestServices | undefined;
  healthProbes.push({
    name: "restStores",
    check: async () => {
      const unavailable = Object.entries(backing?.storeAvailability ?? {})
        .map(([name, availability]) => ({ name, ...availability() }))
        .filter((store) => store.state === "unavailable");
      if (unavailable.length === 0) return undefined;
      return unavailable
        .map((store) => `${store.name} store (${store.file}) refuses calls: ${store.reason}`)
        .join("; ");
    },
  });
  return [
    {
      name: "rest-services",
      start: async () => {
        backing = await startRestServices(config, logger, deps);
        for (const [name, availability] of Object.entries(backing.storeAvailability))
          status.set("stores", name, availability);
        return backing;
      },
    },
    trackService(
      {
        name: "rest-api",
        start: () => {
          if (backing === undefined) throw new Error("rest-services must start first");
          return startHttpListener({
            name: "REST API",
            app: createRestApp({
              config: rest,
              logger: logger.child("rest"),
              clock: deps.clock,
              rateLimitStore: createMemoryRateLimitStore(),
              clientIp: nodeClientIp,
              services: backing.services,
              explorerAssets: swaggerUiAssets(),
              ...(deps.countRateLimited === undefined ? {} : { countRateLimited: deps.countRateLimited }),
            }),
            host: rest.host,
            port: rest.port,
            logger,
          });
        },
      },
      { board: status, section: "listeners", label: "REST API", runningState: "listening" },
    ),
  ];
}

/**
 * Starts every service; stopping them begins the shutdown schedule (local/shutdown-budget.ts),
 * so its deadlines count from the moment stop() is called (main.ts calls it on the signal).
 */
export async function startLocal(
  config: Config,
  logger: Logger,
  deps: LocalDeps = { clock: systemClock, cwd: process.cwd() },
): Promise<Service> {
  const shutdown = deps.shutdown ?? createShutdownSchedule(deps.clock);
  const running = await startInOrder(localServices(config, logger, { ...deps, shutdown }), logger);
  return {
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
