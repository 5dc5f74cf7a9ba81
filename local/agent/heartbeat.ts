/**
 * The agent's heartbeat: a GET to `heartbeat.remoteURL` at start
 * and on every occurrence of `heartbeat.frequency` (a later.js text schedule or cron, UTC), so a
 * monitoring tool sees the agent is alive. Each call gives up after 10 s; a failure (no answer,
 * timeout, non-2xx) is logged at WARN and counted (`steward_heartbeats_total{outcome}`), never
 * stops the beat. Heartbeat failures are not error-tracked (nor are they in Butler SOS).
 * Uptime services put the check's secret in the URL's path, so log lines name the URL with its
 * path masked (origin and masked path, core/config/mask-url.ts), errors included.
 */
import { maskUrl } from "../../core/config/index.ts";
import type { Clock, Logger, MetricsRegistry, Stoppable } from "../../core/ports.ts";
import { type RecurringTimer, startRecurringTimer } from "../../core/schedules/index.ts";
import { describeError } from "../../core/shared/describe-error.ts";
import { parseRecurrence } from "../../core/shared/recurrence.ts";
import type { AgentPart } from "./agent-part.ts";

export interface HeartbeatDeps {
  remoteURL: string;
  frequency: string;
  clock: Clock;
  logger: Logger;
  metrics?: MetricsRegistry | undefined;
  /** Web fetch (tests inject one); default the global fetch. */
  fetch?: typeof fetch | undefined;
  /** Per call (default 10 000 ms). */
  timeoutMs?: number | undefined;
}

export interface HeartbeatStats {
  sent: number;
  failed: number;
  lastError: string | undefined;
}

export interface Heartbeat extends Stoppable {
  stats(): HeartbeatStats;
  readonly timer: RecurringTimer;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function startHeartbeat(deps: HeartbeatDeps): Heartbeat {
  const { remoteURL, logger } = deps;
  const url = maskUrl(remoteURL, { secretPath: true });
  const send = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const stats: HeartbeatStats = { sent: 0, failed: 0, lastError: undefined };

  async function beat(): Promise<void> {
    try {
      const response = await send(remoteURL, { method: "GET", signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the heartbeat URL answered ${response.status}`);
      stats.sent += 1;
      if (stats.lastError !== undefined) logger.info("heartbeat works again", { url });
      stats.lastError = undefined;
      logger.verbose("heartbeat sent", { url, status: response.status });
    } catch (error) {
      stats.failed += 1;
      // fetch names the whole URL in some of its errors.
      stats.lastError = describeError(error).replaceAll(remoteURL, url);
      logger.warn("heartbeat failed; the next one tries again", { url, error: stats.lastError });
    }
  }

  deps.metrics?.counter({
    name: "steward_heartbeats_total",
    help: "Heartbeat calls to heartbeat.remoteURL, by outcome (sent, failed)",
    labelNames: ["outcome"],
    collect: () => [
      { labels: { outcome: "sent" }, value: stats.sent },
      { labels: { outcome: "failed" }, value: stats.failed },
    ],
  });

  logger.info("sending heartbeats", { url, frequency: deps.frequency });
  const timer = startRecurringTimer({
    what: "heartbeat",
    recurrence: parseRecurrence(deps.frequency),
    runAtStart: true,
    run: beat,
    clock: deps.clock,
    logger,
  });
  return { timer, stats: () => ({ ...stats }), stop: () => timer.stop() };
}

/** The heartbeat as an agent part (`heartbeat.enable`). */
export const heartbeatPart: AgentPart = {
  name: "heartbeat",
  enabled: (config) => config.heartbeat.enable,
  start: async ({ config, clock, logger, metrics }) =>
    startHeartbeat({
      remoteURL: config.heartbeat.remoteURL,
      frequency: config.heartbeat.frequency,
      clock,
      logger: logger.child("heartbeat"),
      metrics,
    }),
};
