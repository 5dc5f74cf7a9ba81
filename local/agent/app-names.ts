/**
 * The agent's app-name poller (CONTRACT §7 "Platform polling", reference §4.3 and §9.1): fetches
 * the repository's app list and replaces the app-name cache that UDP user events and the engine
 * performance monitor read, so an event for `/app/<id>` carries the app's name.
 *
 * - The first fetch runs at start (the reference waited one interval: quirk 19), then one every
 *   `intervalMs` on a fixed beat. Start-up waits for the first fetch at most `startWaitMs`: the
 *   names should be there before the first events, but a slow or unreachable platform must never
 *   hold up or fail the agent; the next beat tries again.
 * - A beat that finds the previous fetch still running is skipped with a WARN (never two fetches
 *   at once against the repository).
 * - The cache is replaced only by a fetch that fully succeeded: a failure, a non-2xx answer or a
 *   malformed list (the client rejects those as a whole) keeps the previous names, is counted and
 *   logged at WARN at most once a minute with the reason (error type APP_NAMES_EXTRACT).
 * - stop() cancels the beat and waits for a fetch in flight at most `stopWaitMs`.
 */
import { describeError } from "../../core/destinations/describe-error.ts";
import { createLogThrottle } from "../../core/logging/log-throttle.ts";
import type {
  Clock,
  Logger,
  MetricsRegistry,
  PlatformApp,
  PlatformClient,
  Service,
  TimerHandle,
} from "../../core/ports.ts";

/** The error type the reference's error tracker counts these failures under (§10.6). */
export const APP_NAMES_ERROR_TYPE = "APP_NAMES_EXTRACT";

const DEFAULT_START_WAIT_MS = 3000;
const DEFAULT_STOP_WAIT_MS = 2000;

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

export interface AppNames extends Service {
  stats(): AppNamesStats;
}

/** Resolves true when `work` settles within `ms` on `clock`, false otherwise. */
function settlesWithin(work: Promise<void>, ms: number, clock: Clock): Promise<boolean> {
  let timer: TimerHandle | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = clock.setTimeout(() => resolve(false), ms);
  });
  return Promise.race([work.then(() => true), timeout]).finally(() => clock.clearTimeout(timer));
}

export async function startAppNames(deps: AppNamesDeps): Promise<AppNames> {
  const { listing, cache, intervalMs, server, clock, logger } = deps;
  const throttle = createLogThrottle();
  const stats: AppNamesStats = {
    succeeded: 0,
    failed: 0,
    skipped: 0,
    apps: 0,
    lastSuccessAt: undefined,
    lastError: undefined,
  };
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;

  async function fetchOnce(): Promise<void> {
    let apps: PlatformApp[];
    try {
      apps = await listing.listRepositoryApps();
      cache.replace(apps);
    } catch (error) {
      stats.failed += 1;
      stats.lastError = describeError(error);
      const fields = { server, errorType: APP_NAMES_ERROR_TYPE, error: stats.lastError };
      if (stopped !== undefined) {
        logger.debug("an app-name fetch ended with shutdown", fields);
        return;
      }
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

  /** Starts a fetch unless one is running; answers the fetch it started. */
  function fetchUnlessRunning(): Promise<void> | undefined {
    if (inFlight !== undefined) {
      stats.skipped += 1;
      const skipped = throttle.admit("skipped", clock.now());
      if (skipped !== undefined) {
        logger.warn("the previous app-name fetch is still running; this one is skipped", {
          server,
          intervalMs,
          skipped,
        });
      }
      return undefined;
    }
    const fetch = fetchOnce().finally(() => {
      inFlight = undefined;
    });
    inFlight = fetch;
    return fetch;
  }

  function beat(): void {
    // A fixed beat: the next one is due an interval after this one, however long the fetch takes.
    timer = clock.setTimeout(beat, intervalMs);
    void fetchUnlessRunning();
  }

  deps.metrics?.counter({
    name: "steward_app_names_fetches_total",
    help: "App-name fetches from the repository, by outcome (succeeded, failed, skipped while one ran)",
    labelNames: ["outcome"],
    collect: () => [
      { labels: { outcome: "succeeded" }, value: stats.succeeded },
      { labels: { outcome: "failed" }, value: stats.failed },
      { labels: { outcome: "skipped" }, value: stats.skipped },
    ],
  });
  deps.metrics?.gauge({
    name: "steward_app_names_cached",
    help: "Apps in the app-name cache (from the last successful fetch)",
    labelNames: [],
    collect: () => [{ labels: {}, value: stats.apps }],
  });

  logger.info("fetching app names from the repository", { server, intervalMs });
  const first = fetchUnlessRunning() ?? Promise.resolve();
  timer = clock.setTimeout(beat, intervalMs);
  if (!(await settlesWithin(first, deps.startWaitMs ?? DEFAULT_START_WAIT_MS, clock))) {
    logger.warn("the first app-name fetch is still running; start-up goes on without the names", { server });
  }

  async function shutDown(): Promise<void> {
    clock.clearTimeout(timer);
    timer = undefined;
    const running = inFlight;
    if (running === undefined) return;
    if (!(await settlesWithin(running, deps.stopWaitMs ?? DEFAULT_STOP_WAIT_MS, clock))) {
      logger.warn("an app-name fetch was still running at shutdown; it is abandoned", { server });
    }
  }

  return {
    stats: () => ({ ...stats }),
    stop() {
      stopped ??= shutDown();
      return stopped;
    },
  };
}
