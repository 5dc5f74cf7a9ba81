/**
 * What an on-prem agent part is: a name, the config switch that turns it on, and a start that
 * is handed everything it needs and returns what stops it. The composition root (local/wiring.ts)
 * lists the parts in start order; start-agent.ts starts the enabled ones and stops them in
 * reverse. A new part is one file exporting an AgentPart, and one line in that list.
 */
import type { MemoryAppNameCache } from "../../core/adapters/local/memory-app-name-cache.ts";
import type { PromMetricsRegistry } from "../../core/adapters/prometheus/prom-metrics-registry.ts";
import type { AlertDispatcher } from "../../core/alerts/index.ts";
import type { Config } from "../../core/config/index.ts";
import type { HttpRefusedMetric, StatusBoard } from "../../core/monitoring/index.ts";
import type { Clock, Logger, Stoppable } from "../../core/ports.ts";
import type { RateLimitedMetric } from "../../core/ratelimit/index.ts";
import type { AgentConnections } from "./agent-connections.ts";
import type { ListenerProbe } from "./listener-probes.ts";

/** What every agent part is started with. */
export interface AgentPartDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Relative paths in the config (certificates, keys under ./data/) resolve from here. */
  cwd: string;
  /** Where a part declares the metrics the scrape endpoint publishes (and what it serves). */
  metrics: PromMetricsRegistry;
  /** `steward_http_rate_limited_total`: a listener with a rate limit counts its refusals under its name. */
  rateLimited: RateLimitedMetric;
  /** `steward_http_refused_total`: a listener counts what it refuses before answering under its name. */
  httpRefused: HttpRefusedMetric;
  /** App id → name, filled by the app-name poller (empty until its first fetch). */
  appNames: MemoryAppNameCache;
  /** Where a part shows its state, read by the config UI's /status. */
  status: StatusBoard;
  /** What the container health check probes besides the listeners (the audit queue, the stores). */
  healthProbes: readonly ListenerProbe[];
  /** The configuration file's tree as written, `${ENV}` unresolved (the config UI). */
  configTree: unknown;
  /** `--log-level`, when given (the config UI shows it as `logLevel`). */
  logLevelOverride: string | undefined;
  /**
   * Where the producers of alerts (task events, the licence monitor) hand them over: the alerts
   * part's dispatcher (functions/alerts/alerts-part.ts), started before the agent's parts.
   */
  alerts: AlertDispatcher;
}

interface AgentPartBase {
  /** The part's name in start order and in the log line of a stop that fails. */
  readonly name: string;
  /** Whether the config turns the part on; a part that is off is not started. */
  enabled(config: Config): boolean;
}

/** A part that writes nowhere through the shared connections (a listener, a heartbeat). */
export interface PlainAgentPart extends AgentPartBase {
  readonly writes?: false;
  start(deps: AgentPartDeps): Promise<Stoppable>;
}

/**
 * A part that writes through the shared connections (time-series client, broker, error tracking):
 * they are started before it and stopped after it, once it has flushed.
 */
export interface WritingAgentPart extends AgentPartBase {
  readonly writes: true;
  start(deps: WritingAgentPartDeps): Promise<Stoppable>;
}

/** What a writing part is started with: the shared connections besides the rest. */
export interface WritingAgentPartDeps extends AgentPartDeps {
  connections: AgentConnections;
}

export type AgentPart = PlainAgentPart | WritingAgentPart;
