/**
 * The attribute set of the health and session metric batches: the server tags (sessions: the
 * session tags), `obsPlatform.metric.attribute.static`, and `serviceVersion` = the Steward version
 * when `obsPlatform.metric.attribute.dynamic.serviceVersion.enable`. A static attribute never
 * replaces a tag of the server, and neither replaces `serviceVersion`.
 */
import type { ObsPlatformConfig } from "../config/index.ts";
import type { ServerTags } from "./server-tags.ts";

export type MetricAttributeConfig = ObsPlatformConfig["metric"]["attribute"];

/** Builds the attributes of one server's (or session poll's) batch from its tags. */
export type MetricAttributes = (tags: ServerTags) => Readonly<Record<string, string>>;

export function createMetricAttributes(
  attribute: MetricAttributeConfig,
  serviceVersion: string,
): MetricAttributes {
  const fixed = Object.fromEntries(attribute.static.map((a) => [a.name, a.value]));
  const version: Record<string, string> = attribute.dynamic.serviceVersion.enable ? { serviceVersion } : {};
  return (tags) => ({ ...fixed, ...tags, ...version });
}
