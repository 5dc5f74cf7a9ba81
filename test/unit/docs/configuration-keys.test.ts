/**
 * Configuration keys named where operators read them exist in the schema: in the shipped alert
 * rules' annotations (a runbook that says "raise messageQueue.rateLimit" sends the operator to a
 * key check-config rejects), and in the handbook's backticked key paths that start at a
 * top-level section (`Service.` optional), such as `userEvents.udpServerConfig.rateLimit.enable`.
 * A renamed or misspelt key in a page or a rule fails here, naming the file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { serviceSchema } from "../../../core/config/index.ts";
import { type AnySchema, arrayItem, objectEntries, recordValue } from "../../../core/config/schema-walk.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const RULES = join(ROOT, "dashboards", "prometheus", "steward-rules.yml");

/**
 * Keys of Butler and Butler SOS that Steward does not have, named on the migration page to say
 * what became of them; each must still be named there.
 */
const BUTLER_KEYS: readonly string[] = [
  "mqttConfig.taskFailureTopic",
  "thirdPartyToolsCredentials.newRelic",
  "slackNotification.restMessage.webhookURL",
  "incidentTool.signl4",
  "mqttConfig.qlikSenseCloud",
  "mqttConfig.azureEventGrid",
  "scheduler.configfile",
  "logEvents.source.qixPerf",
  "uptimeMonitor.storeInInfluxdb.butlerSOSMemoryUsage",
  "userEvents.sendToNewRelic.destinationAccount",
];
const MIGRATION_PAGE = join("docs", "moving-from-butler.md");

/** Every path of the schema, sections included; `[]` marks a list or map level. */
function schemaPaths(schema: AnySchema, prefix: readonly string[] = []): string[][] {
  const entries = objectEntries(schema);
  if (entries !== undefined) {
    return [
      [...prefix],
      ...Object.entries(entries).flatMap(([key, child]) => schemaPaths(child, [...prefix, key])),
    ];
  }
  const item = arrayItem(schema) ?? recordValue(schema);
  if (item !== undefined && objectEntries(item) !== undefined) {
    return [[...prefix], ...schemaPaths(item, [...prefix, "[]"])];
  }
  return [[...prefix]];
}

const PATHS = schemaPaths(serviceSchema);
const TOP_LEVEL = new Set(Object.keys(serviceSchema.entries));
const KEY_NAMES = new Set(PATHS.flat());

/** `Service.servers[0].host` → `servers`, `[]`, `host`. */
const segmentsOf = (name: string) =>
  name
    .replace(/^Service\./, "")
    .replace(/\[\d*\]/g, ".[]")
    .split(".")
    .filter((segment) => segment !== "");

/** The segments appear in this order in a schema path, starting at `from` (`*` matches any key). */
const matchesAt = (path: readonly string[], segments: readonly string[], from: number) =>
  from + segments.length <= path.length &&
  segments.every((segment, i) => segment === "*" || segment === path[from + i]);

/** From the root when the name starts at a top-level section, else anywhere inside a path. */
function exists(name: string): boolean {
  const segments = segmentsOf(name);
  if (TOP_LEVEL.has(segments[0] ?? "")) return PATHS.some((path) => matchesAt(path, segments, 0));
  return PATHS.some((path) => path.some((_, from) => matchesAt(path, segments, from)));
}

/** Dotted key paths in the rules' prose, whose first key is one the schema has somewhere. */
function namesInProse(text: string): string[] {
  const found = text.match(/(?<![\w$.])[A-Za-z]\w*(?:\[\])?(?:\.(?:[A-Za-z]\w*(?:\[\])?|\*))+/g) ?? [];
  return found.filter((name) => KEY_NAMES.has(segmentsOf(name)[0] ?? ""));
}

/** Backticked key paths of a page that start at a top-level section. */
function namesInPage(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? "");
  return spans.filter(
    (span) =>
      /^(?:Service\.)?[A-Za-z]\w*(?:\.[\w*]+|\[\d*\])+$/.test(span) &&
      TOP_LEVEL.has(segmentsOf(span)[0] ?? ""),
  );
}

function annotationTexts(): string[] {
  const rules = parse(readFileSync(RULES, "utf8")) as {
    groups: { rules: { annotations?: Record<string, string> }[] }[];
  };
  return rules.groups.flatMap((group) =>
    group.rules.flatMap((rule) => Object.values(rule.annotations ?? {})),
  );
}

function handbookPages(): string[] {
  const docs = readdirSync(join(ROOT, "docs"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  return ["README.md", ...docs.sort()];
}

describe("configuration keys named outside the schema", () => {
  it("exist, in the shipped alert rules' summaries, descriptions and runbooks", () => {
    // Act
    const names = annotationTexts().flatMap(namesInProse);
    const missing = names.filter((name) => !exists(name));

    // Assess
    expect(names.length, "key paths found in the rules").toBeGreaterThan(10);
    expect(missing, `unknown keys in ${relative(ROOT, RULES)}`).toEqual([]);
  });

  it("exist, in the handbook's backticked key paths", () => {
    // Act
    const named = handbookPages().flatMap((page) =>
      namesInPage(readFileSync(join(ROOT, page), "utf8")).map((name) => ({ page, name })),
    );
    const missing = named
      .filter(({ page, name }) => !exists(name) && !(page === MIGRATION_PAGE && BUTLER_KEYS.includes(name)))
      .map(({ page, name }) => `${page}: ${name}`);

    // Assess
    expect(named.length, "key paths found in the handbook").toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });

  it("lists as Butler's only keys that the migration page names and Steward does not have", () => {
    // Act
    const page = new Set(namesInPage(readFileSync(join(ROOT, MIGRATION_PAGE), "utf8")));

    // Assess
    expect(BUTLER_KEYS.filter((name) => !page.has(name) || exists(name))).toEqual([]);
  });

  it("would find the unknown key the UDP runbook once named", () => {
    expect(namesInProse("raise messageQueue.rateLimit / maxSize").filter((name) => !exists(name))).toEqual([
      "messageQueue.rateLimit",
    ]);
  });
});
