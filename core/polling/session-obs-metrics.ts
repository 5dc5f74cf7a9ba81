/**
 * A virtual proxy's session count as one observability-platform metric batch: attributes = the
 * session tags + static attributes + `serviceVersion` (metric-attributes.ts), `interval.ms` the
 * session polling interval, one gauge `qs_proxySessions` = the number of sessions (everyone:
 * `excludeUser` does not reduce counts). Undefined — nothing to post — when
 * `obsPlatform.metric.dynamic.proxy.sessions.enable` is off.
 */
import type { ObsPlatformConfig } from "../config/index.ts";
import type { ObservabilityMetricBatch } from "../ports.ts";
import { createMetricAttributes } from "./metric-attributes.ts";
import type { ServerTags } from "./server-tags.ts";

export interface SessionObsMetricOptions {
  readonly metric: ObsPlatformConfig["metric"];
  readonly serviceVersion: string;
  /** `userSessions.pollingInterval`. */
  readonly intervalMs: number;
}

/** `tags`: the session tags (server-tags.ts `sessionTags`). */
export type SessionObsMetricMapper = (
  sessionCount: number,
  tags: ServerTags,
  timestampMs: number,
) => ObservabilityMetricBatch | undefined;

export function createSessionObsMetricMapper(options: SessionObsMetricOptions): SessionObsMetricMapper {
  const enabled = options.metric.dynamic.proxy.sessions.enable;
  const attributes = createMetricAttributes(options.metric.attribute, options.serviceVersion);
  const { intervalMs } = options;

  return function toSessionMetricBatch(sessionCount, tags, timestampMs) {
    if (!enabled) return undefined;
    return {
      timestamp: timestampMs,
      intervalMs,
      attributes: attributes(tags),
      metrics: [{ name: "qs_proxySessions", value: sessionCount }],
    };
  };
}
