/**
 * Label names of the health and session gauges on the scrape endpoint (reference §8.4): `host`,
 * `server_name`, `server_description` and the `serversToMonitor.serverTagsDefinition` names —
 * every server has exactly those (config validation), so no label is declared without a value
 * (CONTRACT §7). A Prometheus label name must match `[a-zA-Z_][a-zA-Z0-9_]*` and must not start
 * with `__` (reserved); `isValidLabelName` is the check a config rule applies to the tag names.
 */
import { FIXED_SERVER_TAGS } from "./server-tags.ts";

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function isValidLabelName(name: string): boolean {
  return LABEL_NAME.test(name) && !name.startsWith("__");
}

/** The fixed server tag names, then the defined ones, each once. */
export function serverLabelNames(serverTagsDefinition: readonly string[]): string[] {
  return [...new Set<string>([...FIXED_SERVER_TAGS, ...serverTagsDefinition])];
}

/** The values of `labelNames` in `tags` (`''` for a name the tags lack). */
export function pickLabels(
  tags: Readonly<Record<string, string>>,
  labelNames: readonly string[],
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const name of labelNames) labels[name] = tags[name] ?? "";
  return labels;
}
