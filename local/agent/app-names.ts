/**
 * The agent's app-name poller: fetches
 * the repository's app list and replaces the app-name cache that UDP user events and the engine
 * performance monitor read, so an event for `/app/<id>` carries the app's name.
 *
 * - The first fetch runs at start (Butler SOS waited one interval), then one every
 *   `intervalMs` on a fixed beat. Start-up waits for the first fetch at most `startWaitMs`: the
 *   names should be there before the first events, but a slow or unreachable platform must never
 *   hold up or fail the agent; the next beat tries again.
 * - A beat that finds the previous fetch still running is skipped with a WARN (never two fetches
 *   at once against the repository).
 * - The cache is replaced only by a fetch that fully succeeded: a failure, a non-2xx answer or a
 *   malformed list (the client rejects those as a whole) keeps the previous names, is counted and
 *   logged at WARN at most once a minute with the reason (error type APP_NAMES_EXTRACT).
 * - stop() cancels the beat and gives a fetch in flight up at once (its request aborted), so a
 *   repository that does not answer never holds up the shutdown (periodic-poll.ts).
 */

import { createLogThrottle } from "../../core/logging/index.ts";
import { type PeriodicPoll, startPeriodicPoll } from "../../core/polling/index.ts";
import type {
  Clock,
  ErrorRecorder,
  Logger,
  MetricsRegistry,
  PlatformApp,
  PlatformClient,
  Stoppable,
} from "../../core/ports.ts";
import { describeError } from "../../core/shared/describe-error.ts";
import { openPlatformClient } from "../open-platform-client.ts";
import { startTracked } from "../status/tracked-part.ts";
import type { WritingAgentPart, WritingAgentPartDeps } from "./agent-part.ts";

/** The error type these failures are counted under: the one Butler SOS's error tracker uses. */
export const APP_NAMES_ERROR_TYPE = "APP_NAMES_EXTRACT";

const DEFAULT_START_WAIT_MS = 3000;

export interface AppNamesDeps {
  /** Where the names come from: the platform client opened on `appNames.hostIP`. */
  listing: Pick<PlatformClient, "listRepositoryApps">;
  /** Replaced as a whole after each complete fetch; stores ids lower-case. */
  cache: { replace(apps: Iterable<PlatformApp>): void };
  /** `appNames.extractInterval`. */
  intervalMs: number;
  /** The repository's `host:port`, for log lines. */
  server: string;
  clock: Clock;
  logger: Logger;
  /** Declares `steward_app_names_fetches_total{outcome}` and `steward_app_names_cached`. */
  metrics?: MetricsRegistry | undefined;
  /** Error tracking: each failed fetch is recorded as APP_NAMES_EXTRACT for `server`. */
  errors?: ErrorRecorder | undefined;
  /** Longest wait for the first fetch at start (default 3000 ms). */
  startWaitMs?: number | undefined;
  /** Longest wait for a fetch in flight at stop (default 2000 ms). */
  stopWaitMs?: number | undefined;
}

export interface AppNamesStats {
  /** Fetches whose list replaced the cache. */
  succeeded: number;
  /** Fetches that failed (unreachable, timeout, non-2xx, malformed list); the cache was kept. */
  failed: number;
  /** Beats skipped because the previous fetch was still running. */
  skipped: number;
  /** Apps in the cache since the last successful fetch. */
  apps: number;
  /** Clock time of the last successful fetch. */
  lastSuccessAt: number | undefined;
  /** Reason of the last failure, cleared by the next success. */
  lastError: string | undefined;
}

export interface AppNames extends Stoppable {
  stats(): AppNamesStats;
}

export async function startAppNames(deps: AppNamesDeps): Promise<AppNames> {
  const { listing, cache, intervalMs, server, clock, logger } = deps;
  const throttle = createLogThrottle();
  const stats = {
    succeeded: 0,
    failed: 0,
    apps: 0,
    lastSuccessAt: undefined as number | undefined,
    lastError: undefined as string | undefined,
  };
  let poll: PeriodicPoll | undefined;

  async function fetchOnce(signal: AbortSignal): Promise<void> {
    let apps: PlatformApp[];
    try {
      apps = await listing.listRepositoryApps(signal);
      cache.replace(apps);
    } catch (error) {
      stats.failed += 1;
      stats.lastError = describeError(error);
      const fields = { server, errorType: APP_NAMES_ERROR_TYPE, error: stats.lastError };
      if (poll?.stopping()) {
        logger.debug("an app-name fetch ended with shutdown", fields);
        return;
      }
      deps.errors?.record(APP_NAMES_ERROR_TYPE, server, error);
      const failures = throttle.admit("failed", clock.now());
      if (failures !== undefined) {
        logger.warn("fetching app names failed; the previous names are kept, the next fetch tries again", {
          ...fields,
          failures,
          names: stats.apps,
        });
      }
      return;
    }
    const recovered = stats.lastError !== undefined;
    stats.succeeded += 1;
    stats.apps = apps.length;
    stats.lastSuccessAt = clock.now();
    stats.lastError = undefined;
    const level = stats.succeeded === 1 || recovered ? "info" : "verbose";
    logger[level]("app names fetched", { server, apps: apps.length });
  }

  const skipped = () => poll?.stats().skipped ?? 0;
  deps.metrics?.counter({
    name: "steward_app_names_fetches_total",
    help: "App-name fetches from the repository, by outcome (succeeded, failed, skipped while one ran)",
    labelNames: ["outcome"],
    collect: () => [
      { labels: { outcome: "succeeded" }, value: stats.succeeded },
      { labels: { outcome: "failed" }, value: stats.failed },
      { labels: { outcome: "skipped" }, value: skipped() },
    ],
  });
  deps.metrics?.gauge({
    name: "steward_app_names_cached",
    help: "Apps in the app-name cache (from the last successful fetch)",
    labelNames: [],
    collect: () => [{ labels: {}, value: stats.apps }],
  });

  logger.info("fetching app names from the repository", { server, intervalMs });
  poll = await startPeriodicPoll({
    what: "app-name fetch",
    intervalMs,
    run: fetchOnce,
    clock,
    logger,
    fields: { server },
    startWaitMs: deps.startWaitMs ?? DEFAULT_START_WAIT_MS,
    stopWaitMs: deps.stopWaitMs,
  });
  const running = poll;

  return {
    stats: () => ({ ...stats, skipped: skipped() }),
    stop: () => running.stop(),
  };
}

/**
 * The app-name poller as an agent part (`appNames.enableAppNameExtract`), on `appNames.hostIP`
 * with a platform client of its own; its stats are on the status page under pollers. Listed
 * before the UDP events, so that the first fetch's names are there for the first events.
 */
export const appNamesPart: WritingAgentPart = {
  name: "app-names",
  enabled: (config) => config.appNames.enableAppNameExtract,
  writes: true,
  start: (deps) =>
    startTracked("app-names", () => startAppNamesOnPlatform(deps), {
      board: deps.status,
      section: "pollers",
      details: (names) => ({ ...names.stats() }),
    }),
};

async function startAppNamesOnPlatform(deps: WritingAgentPartDeps): Promise<AppNames> {
  const { config, logger, clock } = deps;
  const host = config.appNames.hostIP;
  const client = await openPlatformClient(config, host, { logger, clock, cwd: deps.cwd });
  try {
    const poller = await startAppNames({
      listing: client,
      cache: deps.appNames,
      intervalMs: config.appNames.extractInterval,
      server: `${host}:${config.platform.repositoryPort}`,
      clock,
      logger: logger.child("app-names"),
      metrics: deps.metrics,
      errors: deps.connections.errors,
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
}
