/**
 * Label names of the health and session gauges on the scrape endpoint: `host`, `server_name`,
 * `server_description` and the `serversToMonitor.serverTagsDefinition` names — every server has
 * exactly those (config validation), so no label is declared without a value. The config check of
 * core/config/cross-checks.ts makes sure the defined names are valid label names and do not replace
 * the fixed ones.
 */
import { FIXED_SERVER_TAGS } from "./server-tags.ts";

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
