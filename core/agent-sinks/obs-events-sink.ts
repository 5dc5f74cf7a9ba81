/**
 * The observability-platform destination of a UDP pipeline for one account: events batched
 * (by count or age) into one POST whose body is a JSON array, as the event API accepts. One sink
 * per account, so a retry after an outage never repeats what another account already accepted.
 * An outage (no answer, 5xx, 401/403/404/408/429) keeps the batch for a retry; events the
 * platform refuses (other 4xx) are logged with a preview, counted as rejected, not posted again.
 */

import type { LogThrottle } from "../logging/log-throttle.ts";
import { ObservabilityPostError } from "../observability/observability-post-error.ts";
import type {
  Clock,
  Logger,
  ObservabilityAccount,
  ObservabilityEvent,
  ObservabilityEventBatchPoster,
} from "../ports.ts";
import { type DestinationSink, type SinkTuning, startBatchedSink } from "./batched-sink.ts";

export interface ObsEventsSinkOptions {
  poster: ObservabilityEventBatchPoster;
  account: ObservabilityAccount;
  tuning: SinkTuning;
  clock: Clock;
  logger: Logger;
  throttle: LogThrottle;
}

const PREVIEW_CHARS = 200;

/** The destination name of an account in stats, logs and metrics. */
export const obsEventsDestination = (account: ObservabilityAccount) => `obs-platform:${account.accountName}`;

export function startObsEventsSink(options: ObsEventsSinkOptions): DestinationSink<ObservabilityEvent> {
  const { poster, account } = options;
  return startBatchedSink<ObservabilityEvent>({
    destination: obsEventsDestination(account),
    noun: "observability events",
    write: (batch) => poster.postEvents(batch.items, account),
    refusal: (error, batch) =>
      error instanceof ObservabilityPostError && error.refusesData
        ? {
            count: batch.items.length,
            fields: {
              events: batch.items.length,
              preview: JSON.stringify(batch.items[0]).slice(0, PREVIEW_CHARS),
            },
          }
        : undefined,
    tuning: options.tuning,
    clock: options.clock,
    logger: options.logger,
    throttle: options.throttle,
  });
}
