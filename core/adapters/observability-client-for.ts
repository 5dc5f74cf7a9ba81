/**
 * The one way to build an observability platform client: from the config section of the use and
 * the kind of target it posts for. Each kind says which URL and headers its posts carry and how
 * long one post may take, here and nowhere else:
 * - `rest-api`: the REST API's events and metrics (`obsPlatform.event`/`metric`, with their static
 *   attributes), to the accounts the REST settings pick;
 * - `metrics`: the agent's metric batches (uptime, platform polling): `obsPlatform.metric`'s URL
 *   and headers;
 * - `events`: the agent's event batches (UDP pipelines): `obsPlatform.event`'s URL and headers;
 * - `alert`: a reload-task alert kind's events and log entries (`incidentTool.newRelic`, with
 *   that kind's headers; the alert names its accounts when it posts).
 * The agent's batches carry no static attributes here: their mappers add the ones each batch
 * carries.
 */

import type { Config } from "../config/index.ts";
import type { ObservabilityDestination } from "../observability/observability.ts";
import type { Clock, ObservabilityAccount } from "../ports.ts";
import { createObservabilityClient } from "./http-clients/observability-client.ts";

/**
 * Milliseconds one post may take when a caller waits for its answer (a REST request): the
 * caller gets its 502 while it still waits, rather than its own gateway's timeout.
 */
export const OBS_PLATFORM_ANSWERED_POST_TIMEOUT_MS = 5000;

/**
 * Milliseconds one post may take when nobody waits for it (the agent's batches, alerts): a
 * platform that answers slowly still gets the batch or alert, and one that does not answer never
 * holds a batch or an alert longer. Stopping is bounded by each part's own stop budget.
 */
export const OBS_PLATFORM_BACKGROUND_POST_TIMEOUT_MS = 10_000;

export type ObservabilityTarget =
  | {
      readonly kind: "rest-api";
      readonly obsPlatform: Config["obsPlatform"];
      readonly eventAccounts: readonly ObservabilityAccount[];
      readonly metricAccounts: readonly ObservabilityAccount[];
    }
  | {
      readonly kind: "metrics" | "events";
      readonly obsPlatform: Config["obsPlatform"];
      readonly accounts: readonly ObservabilityAccount[];
    }
  | {
      readonly kind: "alert";
      readonly newRelic: Config["incidentTool"]["newRelic"];
      readonly alert: "reloadTaskFailure" | "reloadTaskAborted";
    };

export interface ObservabilityClientDeps {
  readonly clock: Clock;
  /** Web fetch (tests inject one); the global one by default. */
  readonly fetch?: typeof fetch | undefined;
}

function destinationsOf(target: ObservabilityTarget): {
  event: ObservabilityDestination;
  metric: ObservabilityDestination;
  log?: ObservabilityDestination;
} {
  switch (target.kind) {
    case "rest-api": {
      const { event, metric } = target.obsPlatform;
      return {
        event: {
          url: event.url,
          headers: event.header,
          staticAttributes: event.attribute.static,
          accounts: target.eventAccounts,
        },
        metric: {
          url: metric.url,
          headers: metric.header,
          staticAttributes: metric.attribute.static,
          accounts: target.metricAccounts,
        },
      };
    }
    case "metrics":
    case "events": {
      const settings = target.kind === "metrics" ? target.obsPlatform.metric : target.obsPlatform.event;
      const destination = {
        url: settings.url,
        headers: settings.header,
        staticAttributes: [],
        accounts: target.accounts,
      };
      return { event: destination, metric: destination };
    }
    case "alert": {
      const headers = target.newRelic[target.alert].sharedSettings.header;
      const at = (url: string) => ({ url, headers, staticAttributes: [], accounts: [] });
      return {
        event: at(target.newRelic.url.event),
        metric: at(target.newRelic.url.event),
        log: at(target.newRelic.url.log),
      };
    }
  }
}

export function observabilityClientFor(target: ObservabilityTarget, deps: ObservabilityClientDeps) {
  return createObservabilityClient({
    ...destinationsOf(target),
    clock: deps.clock,
    timeoutMs:
      target.kind === "rest-api"
        ? OBS_PLATFORM_ANSWERED_POST_TIMEOUT_MS
        : OBS_PLATFORM_BACKGROUND_POST_TIMEOUT_MS,
    ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
  });
}
