/**
 * The observability-platform destination of the agent for one account: items batched (by count
 * or age) into one POST whose body is a JSON array, as both of the platform's APIs accept —
 * events (UDP user and log events) and gauge batches (health and session metrics). One destination per
 * account and API, so a retry after an outage never repeats what another account accepted.
 * An outage (no answer, 5xx, 401/403/404/408/429) keeps the batch for a retry; items the
 * platform refuses (other 4xx) are logged with a preview, counted as rejected, not posted again.
 */

import type { LogThrottle } from "../logging/index.ts";
import { ObservabilityPostError } from "../observability/observability-post-error.ts";
import type { Clock, Logger, ObservabilityAccount } from "../ports.ts";
import {
  type AgentDestination,
  type DestinationTuning,
  startBatchedDestination,
} from "./batched-destination.ts";

export interface ObsPlatformDestinationOptions<T> {
  /** `events` or `metrics`: which API, for the destination name and logs. */
  api: "events" | "metrics";
  post(items: readonly T[], account: ObservabilityAccount): Promise<void>;
  account: ObservabilityAccount;
  tuning: DestinationTuning;
  /** Told of every failed POST (error tracking). */
  onWriteError?: ((error: unknown) => void) | undefined;
  clock: Clock;
  logger: Logger;
  throttle: LogThrottle;
}

const PREVIEW_CHARS = 200;

/**
 * The destination name of an account in stats, logs and metrics: `obs-platform:<account>` for
 * events, `obs-platform-metrics:<account>` for gauges.
 */
export const obsPlatformDestinationName = (api: "events" | "metrics", account: ObservabilityAccount) =>
  `${api === "events" ? "obs-platform" : "obs-platform-metrics"}:${account.accountName}`;

export function startObsPlatformDestination<T>(
  options: ObsPlatformDestinationOptions<T>,
): AgentDestination<T> {
  const { post, account } = options;
  return startBatchedDestination<T>({
    destination: obsPlatformDestinationName(options.api, account),
    noun: options.api === "events" ? "observability events" : "observability metric batches",
    write: (batch) => post(batch.items, account),
    refusal: (error, batch) =>
      error instanceof ObservabilityPostError && error.refusesData
        ? [
            {
              reason: "other",
              count: batch.items.length,
              detail: error.message,
              fields: {
                [options.api]: batch.items.length,
                preview: JSON.stringify(batch.items[0]).slice(0, PREVIEW_CHARS),
              },
            },
          ]
        : undefined,
    tuning: options.tuning,
    onWriteError: options.onWriteError,
    clock: options.clock,
    logger: options.logger,
    throttle: options.throttle,
  });
}
