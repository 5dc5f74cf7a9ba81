/**
 * Posts REST observability events and metrics to the observability platform's ingest APIs
 * (New Relic format), once per destination account, in parallel:
 * - event:  POST {event.url}/v1/accounts/{accountId}/events, body one flat JSON object
 *           {...static attributes, ...request attributes, eventType, timestamp};
 * - events: the same URL for one account, body a JSON array of such objects (`postEvents`, the
 *           agent's batches); a failure throws ObservabilityPostError with the HTTP status;
 * - metric: POST {metric.url}, body [{common: {timestamp, interval.ms?, attributes}, metrics: [{name, type, value}]}].
 * - metrics: the same URL for one account, one body element per gauge batch (`postMetrics`, the
 *           agent's health and session metrics); a failure throws ObservabilityPostError.
 * - logs:   POST {log.url} for one account, body [{common: {attributes}, logs: [{message}]}]
 *           (`postLogs`, the reload alerts' log entries); a failure throws ObservabilityPostError.
 * Headers: Content-Type, the configured headers, then `Api-Key` of the account (last, so a
 * configured header cannot replace it). Any failed account → UpstreamError (502), naming the
 * accounts that failed; the API key never appears in errors or logs.
 */

import type { ObservabilityDestination } from "../../observability/observability.ts";
import { ObservabilityPostError } from "../../observability/observability-post-error.ts";
import type {
  Clock,
  NameValue,
  ObservabilityAccount,
  ObservabilityClient,
  ObservabilityEvent,
  ObservabilityEventBatchClient,
  ObservabilityLogBatch,
  ObservabilityLogBatchClient,
  ObservabilityMetricBatch,
  ObservabilityMetricBatchClient,
  ObservabilityResult,
} from "../../ports.ts";
import { FeatureDisabledError, UpstreamError } from "../../upstream-error.ts";

export interface ObservabilityClientOptions {
  event: ObservabilityDestination;
  metric: ObservabilityDestination;
  /** Where log entries go; without it, postLogs refuses. */
  log?: ObservabilityDestination;
  clock: Clock;
  fetch?: typeof fetch;
  /** Per-request time limit (default 5000 ms). */
  timeoutMs?: number;
}

const UPSTREAM = "observability platform";

function attributesObject(...lists: readonly (readonly NameValue[])[]): Record<string, string> {
  const merged: Record<string, string> = Object.create(null);
  for (const list of lists) for (const { name, value } of list) merged[name] = value;
  return { ...merged };
}

interface PostOutcome {
  account: string;
  /** 0 when there was no answer. */
  status: number;
  text: string;
  error: unknown;
}

export function createObservabilityClient(
  options: ObservabilityClientOptions,
): ObservabilityClient &
  ObservabilityEventBatchClient &
  ObservabilityMetricBatchClient &
  ObservabilityLogBatchClient {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 5000;

  async function postOnce(
    destination: ObservabilityDestination,
    account: ObservabilityAccount,
    url: string,
    body: unknown,
  ): Promise<PostOutcome> {
    const headers = new Headers({ "Content-Type": "application/json; charset=utf-8" });
    for (const header of destination.headers) headers.set(header.name, header.value);
    headers.set("Api-Key", account.insertApiKey);
    try {
      const response = await send(url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return {
        account: account.accountName,
        status: response.status,
        text: response.statusText,
        error: undefined,
      };
    } catch (error) {
      return { account: account.accountName, status: 0, text: "", error };
    }
  }

  const failed = (outcome: PostOutcome) => outcome.status < 200 || outcome.status > 299;
  const describeOutcome = (outcome: PostOutcome) =>
    `${outcome.account}: ${outcome.status === 0 ? "no response" : `HTTP ${outcome.status}`}`;

  async function postToAll(
    kind: "event" | "metric",
    destination: ObservabilityDestination,
    request: (accountId: string) => { url: string; body: unknown },
  ): Promise<ObservabilityResult> {
    if (destination.accounts.length === 0) {
      throw new FeatureDisabledError(`No observability destination account is configured for ${kind}s`);
    }
    const outcomes = await Promise.all(
      destination.accounts.map((account) => {
        const { url, body } = request(String(account.accountId));
        return postOnce(destination, account, url, body);
      }),
    );
    const failures = outcomes.filter(failed);
    if (failures.length > 0) {
      const detail = failures.map(describeOutcome).join(", ");
      throw new UpstreamError(UPSTREAM, `Posting the ${kind} failed for ${detail}`, {
        cause: failures[0]?.error,
      });
    }
    const first = outcomes[0]!;
    return {
      observabilityResultCode: String(first.status),
      observabilityResultText: first.text || "Accepted",
    };
  }

  function throwIfFailed(outcome: PostOutcome, what: string): void {
    if (!failed(outcome)) return;
    throw new ObservabilityPostError(
      outcome.account,
      outcome.status === 0 ? undefined : outcome.status,
      `${what} failed for ${describeOutcome(outcome)}`,
      { cause: outcome.error },
    );
  }

  const metricBatchBody = (batch: ObservabilityMetricBatch) => ({
    common: {
      timestamp: batch.timestamp,
      ...(batch.intervalMs > 0 ? { "interval.ms": batch.intervalMs } : {}),
      attributes: { ...attributesObject(options.metric.staticAttributes), ...batch.attributes },
    },
    metrics: batch.metrics.map((metric) => ({ name: metric.name, type: "gauge", value: metric.value })),
  });

  const logBatchBody = (batch: ObservabilityLogBatch) => ({
    common: { attributes: batch.attributes },
    logs: batch.messages.map((message) => ({ message })),
  });

  const timestampOf = (timestamp: number | undefined) =>
    timestamp !== undefined && timestamp > 0 ? timestamp : options.clock.now();

  const eventBody = (event: ObservabilityEvent) => ({
    ...attributesObject(options.event.staticAttributes, event.attributes),
    eventType: event.eventType,
    timestamp: timestampOf(event.timestamp),
  });
  const eventsUrl = (accountId: string | number) =>
    `${options.event.url.replace(/\/+$/, "")}/v1/accounts/${encodeURIComponent(String(accountId))}/events`;

  return {
    postEvent(event) {
      const body = eventBody(event);
      return postToAll("event", options.event, (accountId) => ({ url: eventsUrl(accountId), body }));
    },
    async postEvents(events, account) {
      if (events.length === 0) return;
      const outcome = await postOnce(
        options.event,
        account,
        eventsUrl(account.accountId),
        events.map(eventBody),
      );
      throwIfFailed(outcome, `Posting ${events.length} event(s)`);
    },
    async postMetrics(batches, account) {
      if (batches.length === 0) return;
      const outcome = await postOnce(
        options.metric,
        account,
        options.metric.url,
        batches.map(metricBatchBody),
      );
      throwIfFailed(outcome, `Posting ${batches.length} metric batch(es)`);
    },
    async postLogs(batches, account) {
      if (batches.length === 0) return;
      if (options.log === undefined) throw new FeatureDisabledError("No log API URL is configured");
      const outcome = await postOnce(options.log, account, options.log.url, batches.map(logBatchBody));
      throwIfFailed(outcome, `Posting ${batches.length} log batch(es)`);
    },
    postMetric(metric) {
      const common: Record<string, unknown> = {
        timestamp: timestampOf(metric.timestamp),
        attributes: attributesObject(options.metric.staticAttributes, metric.attributes),
      };
      if (metric.interval !== undefined && metric.interval > 0) common["interval.ms"] = metric.interval;
      const body = [{ common, metrics: [{ name: metric.name, type: metric.type, value: metric.value }] }];
      return postToAll("metric", options.metric, () => ({ url: options.metric.url, body }));
    },
  };
}
