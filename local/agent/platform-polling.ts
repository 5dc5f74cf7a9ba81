/**
 * The agent's platform polling: engine
 * health of every `serversToMonitor.servers[]` entry every `serversToMonitor.pollingInterval`,
 * and, when `userSessions.enableSessionExtract`, the proxy sessions of every virtual proxy of the
 * servers whose `userSessions.enable` is on, every `userSessions.pollingInterval`.
 *
 * One platform monitor (HTTPS with the `cert.*` client certificate, re-read when the files
 * change) and one set of destinations serve both pollers. Each answer goes to the time-series DB (when
 * `timeseriesdbConfig.enable`), the broker (when `mqttConfig.enable`), the observability
 * platform's metric API (when `obsPlatform.enable`, to `obsPlatform.metric.destinationAccount`)
 * and the scrape endpoint's gauges (the latest answers as of each poller's last round, rendered
 * once per round).
 */
import { observabilityClientFor } from "../../core/adapters/observability-client-for.ts";
import { createEventDestinations } from "../../core/agent-destinations/index.ts";
import type { Config, MonitoredServerConfig } from "../../core/config/index.ts";
import { selectAccounts } from "../../core/observability/observability.ts";
import { createAnswerTurns } from "../../core/polling/answer-turns.ts";
import { declareHealthGauges } from "../../core/polling/health-gauges.ts";
import { createHealthMessageMapper } from "../../core/polling/health-messages.ts";
import { createHealthObsMetricMapper } from "../../core/polling/health-obs-metrics.ts";
import { createHealthPointMapper } from "../../core/polling/health-points.ts";
import {
  type PlatformPoller,
  type PlatformPollerOptions,
  type PollItems,
  startPlatformPoller,
} from "../../core/polling/platform-poller.ts";
import { serverLabelNames } from "../../core/polling/scrape-labels.ts";
import { serverTags, sessionTags } from "../../core/polling/server-tags.ts";
import { declareSessionGauges } from "../../core/polling/session-gauges.ts";
import { createSessionMessageMapper } from "../../core/polling/session-messages.ts";
import { createSessionObsMetricMapper } from "../../core/polling/session-obs-metrics.ts";
import { createSessionPointMapper } from "../../core/polling/session-points.ts";
import { createUserExclusion } from "../../core/polling/session-users.ts";
import type { EngineHealth, Logger, PlatformMonitor, ProxySessionList, Stoppable } from "../../core/ports.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import { openPlatformMonitor } from "../open-platform-client.ts";
import type { WritingPartDeps } from "./agent-connections.ts";
import type { WritingAgentPart } from "./agent-part.ts";

/** Calls in flight at once per poller: enough for hundreds of servers in a round, never a storm. */
export const MAX_CONCURRENT_CALLS = 10;

/**
 * Broker publishes in flight at once per poller. One health answer is 22 messages: published
 * together they leave in one socket write (mqtt.js writes what is published in one tick at
 * once); 10 at a time, each waiting for an acknowledgement to free its place, they took a write
 * each. Profiled at 200 servers, the socket writes to the broker took 22 ms of CPU a second
 * (18 % of the agent's) that way and 12 ms this way.
 */
export const MAX_PUBLISHES_IN_FLIGHT = 100;

/** Certificate paths resolve from `cwd`; `appNames` gives the `*_names` health fields. */
export interface PlatformPollingDeps extends WritingPartDeps {
  /** Tests inject a monitor; by default one is opened from `cert.*`. */
  monitor?: PlatformMonitor | undefined;
}

export interface PlatformPolling extends Stoppable {
  readonly health: PlatformPoller<HealthTarget, EngineHealth> | undefined;
  readonly sessions: PlatformPoller<SessionTarget, ProxySessionList> | undefined;
}

interface HealthTarget {
  readonly server: MonitoredServerConfig;
  readonly tags: Readonly<Record<string, string>>;
}

interface SessionTarget {
  readonly server: MonitoredServerConfig;
  readonly virtualProxy: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** True when the config asks for health or session polling. */
export function platformPollingEnabled(config: Config): boolean {
  return config.serversToMonitor.servers.length > 0 || sessionTargets(config).length > 0;
}

function sessionTargets(config: Config): SessionTarget[] {
  if (!config.userSessions.enableSessionExtract) return [];
  return config.serversToMonitor.servers.flatMap((server) =>
    server.userSessions.enable
      ? server.userSessions.virtualProxies.map(({ virtualProxy }) => ({
          server,
          virtualProxy,
          tags: sessionTags(serverTags(server), virtualProxy, server.userSessions.host),
        }))
      : [],
  );
}

/** Platform polling as an agent part: each poller's state and stats on the status page. */
export const platformPollingPart: WritingAgentPart = {
  name: "platform-polling",
  enabled: platformPollingEnabled,
  writes: true,
  async start(deps) {
    const polling = await startPlatformPolling(deps);
    for (const [name, poller] of [
      ["health", polling.health],
      ["sessions", polling.sessions],
    ] as const) {
      if (poller !== undefined)
        deps.status.set("pollers", name, () => ({ state: "running", ...poller.stats() }));
    }
    return polling;
  },
};

export async function startPlatformPolling(deps: PlatformPollingDeps): Promise<PlatformPolling> {
  const { config, clock } = deps;
  const logger = deps.logger.child("polling");
  const monitor = deps.monitor ?? (await openPlatformMonitor(config, { logger, clock, cwd: deps.cwd }));
  const closeMonitor = deps.monitor === undefined ? () => monitor.close() : () => undefined;
  const started: Stoppable[] = [];
  try {
    const common = pollerCommon(deps, monitor, logger, started);
    const health = config.serversToMonitor.servers.length > 0 ? await startHealth(deps, common) : undefined;
    const targets = sessionTargets(config);
    const sessions = targets.length > 0 ? await startSessions(deps, common, targets) : undefined;

    let stopping: Promise<void> | undefined;
    return {
      health,
      sessions,
      stop() {
        stopping ??= stopAll(started, logger).finally(closeMonitor);
        return stopping;
      },
    };
  } catch (error) {
    await stopAll(started, logger);
    closeMonitor();
    throw error;
  }
}

/**
 * What both pollers are started with: the monitor, one set of destinations, the answers' turns, and
 * `started`, where each poller goes after its destinations (stopped in reverse, pollers first).
 */
type PollerCommon = Pick<
  PlatformPollerOptions<unknown, unknown>,
  "ready" | "answerTurn" | "destinations" | "maxConcurrent" | "clock" | "logger" | "metrics" | "errors"
> & { monitor: PlatformMonitor; started: Stoppable[] };

function pollerCommon(
  deps: PlatformPollingDeps,
  monitor: PlatformMonitor,
  logger: Logger,
  started: Stoppable[],
): PollerCommon {
  const { config, clock, connections } = deps;
  const accounts = selectAccounts(
    config.thirdPartyToolsCredentials.obsPlatform,
    config.obsPlatform.metric.destinationAccount,
  ).accounts;
  const destinations = createEventDestinations({
    maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
    maxInFlightMessages: MAX_PUBLISHES_IN_FLIGHT,
    series: connections.series,
    broker: config.mqttConfig.enable ? connections.broker : undefined,
    obsMetrics: config.obsPlatform.enable
      ? {
          client: observabilityClientFor(
            { kind: "metrics", obsPlatform: config.obsPlatform, accounts },
            { clock },
          ),
          accounts,
        }
      : undefined,
    clock,
    logger,
    onWriteError: connections.recordWriteError,
  });
  started.push(connections.stopWithinBudget("platform-polling", destinations));
  connections.addStats(() => destinations.stats());
  // Both pollers' answers take turns: a round's answers that arrive together held the event
  // loop for up to 27 ms at a time, and a scrape of the agent's metrics waited behind them.
  const turns = createAnswerTurns((callback) => setImmediate(callback));
  return {
    monitor,
    started,
    // A round is skipped while no call can be made (the client certificate file is gone).
    ready: monitor.ready?.bind(monitor),
    answerTurn: turns.turn,
    destinations,
    maxConcurrent: MAX_CONCURRENT_CALLS,
    clock,
    logger,
    metrics: deps.metrics,
    errors: connections.errors,
  };
}

/** Which destinations get the answers: each one's mapper exists only when it is on. */
function destinationsOn(deps: PlatformPollingDeps) {
  const { config, connections } = deps;
  return {
    series: connections.series !== undefined,
    mqtt: config.mqttConfig.enable && connections.broker !== undefined,
    obs: config.obsPlatform.enable,
    metric: { metric: config.obsPlatform.metric, serviceVersion: SERVICE_VERSION },
    labelNames: serverLabelNames(config.serversToMonitor.serverTagsDefinition),
  };
}

async function startHealth(
  deps: PlatformPollingDeps,
  { monitor, started, ...common }: PollerCommon,
): Promise<PlatformPoller<HealthTarget, EngineHealth>> {
  const { config } = deps;
  const on = destinationsOn(deps);
  const { version, includeFields } = config.timeseriesdbConfig;
  const appNames = config.appNames.enableAppNameExtract ? deps.appNames : undefined;
  const points = on.series ? createHealthPointMapper({ version, includeFields, appNames }) : undefined;
  const messages = on.mqtt ? createHealthMessageMapper(config.mqttConfig) : undefined;
  const intervalMs = config.serversToMonitor.pollingInterval;
  const obsMetrics = on.obs ? createHealthObsMetricMapper({ ...on.metric, intervalMs }) : undefined;
  const poller = await startPlatformPoller<HealthTarget, EngineHealth>({
    poll: "health",
    what: "health round",
    errorType: "HEALTH_API",
    targets: config.serversToMonitor.servers.map((server) => ({ server, tags: serverTags(server) })),
    key: (target) => target.server.serverName,
    describe: (target) => ({ server_name: target.server.serverName, host: target.server.host }),
    fetch: (target, signal) =>
      monitor.engineHealth({ host: target.server.host, headers: target.server.headers }, signal),
    itemsOf: (target, answer, at): PollItems => {
      const batch = obsMetrics?.(answer, target.tags, at);
      return {
        points: points?.(answer, target.tags, at) ?? [],
        messages: messages?.(answer, target.server.host) ?? [],
        metrics: batch === undefined ? [] : [batch],
      };
    },
    intervalMs,
    ...common,
  });
  started.push(poller);
  declareHealthGauges(
    deps.metrics,
    () => [...poller.latest()].map((entry) => ({ tags: entry.target.tags, health: entry.answer })),
    on.labelNames,
    (listener) => poller.onRound(listener),
  );
  return poller;
}

async function startSessions(
  deps: PlatformPollingDeps,
  { monitor, started, ...common }: PollerCommon,
  targets: SessionTarget[],
): Promise<PlatformPoller<SessionTarget, ProxySessionList>> {
  const { config } = deps;
  const on = destinationsOn(deps);
  const isExcluded = createUserExclusion(config.userSessions.excludeUser);
  const version = config.timeseriesdbConfig.version;
  const points = on.series ? createSessionPointMapper({ version, isExcluded }) : undefined;
  const messages = on.mqtt ? createSessionMessageMapper(config.mqttConfig) : undefined;
  const intervalMs = config.userSessions.pollingInterval;
  const obsMetrics = on.obs ? createSessionObsMetricMapper({ ...on.metric, intervalMs }) : undefined;
  const poller = await startPlatformPoller<SessionTarget, ProxySessionList>({
    poll: "sessions",
    what: "session round",
    errorType: "PROXY_API",
    targets,
    key: (target) => `${target.server.serverName} ${target.virtualProxy}`,
    describe: (target) => ({
      server_name: target.server.serverName,
      host: target.server.userSessions.host,
      virtualProxy: target.virtualProxy,
    }),
    fetch: (target, signal) =>
      monitor.proxySessions(target.server.userSessions.host, target.virtualProxy, signal),
    itemsOf: (target, answer, at): PollItems => {
      const batch = obsMetrics?.(answer.sessions.length, target.tags, at);
      const host = target.server.userSessions.host;
      return {
        points: points?.(answer.sessions, target.tags, at) ?? [],
        messages: messages === undefined ? [] : [messages(answer, host, target.virtualProxy)],
        metrics: batch === undefined ? [] : [batch],
      };
    },
    intervalMs,
    ...common,
  });
  started.push(poller);
  declareSessionGauges(
    deps.metrics,
    () =>
      [...poller.latest()].map((entry) => ({
        tags: entry.target.tags,
        sessionCount: entry.answer.sessions.length,
      })),
    on.labelNames,
    (listener) => poller.onRound(listener),
  );
  return poller;
}

/** Stops in reverse order (pollers before the destinations they write to). */
async function stopAll(started: Stoppable[], logger: Logger): Promise<void> {
  for (const part of [...started].reverse()) {
    await part.stop().catch((error: unknown) => {
      logger.error("stopping platform polling failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
  started.length = 0;
}
