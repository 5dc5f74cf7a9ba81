/**
 * The configuration reference page (docs/configuration-reference.md), rendered from the same two
 * sources as `steward init-config`: the valibot schema (every key, its type and default) and the
 * template's one-line documentation of each setting. Generating it means the page cannot miss a
 * setting or show a stale default; `npm run docs:config` writes it, and a test compares the
 * committed page with a fresh rendering.
 */
import { stringify } from "yaml";
import {
  type AnySchema,
  arrayItem,
  documentationOf,
  EMBEDDED_CONFIG,
  isRequiredWhenActive,
  objectEntries,
  recordValue,
  schemaAt,
  schemaDefault,
  serviceSchema,
  unwrap,
} from "../core/config/index.ts";

/** Where the page lives, relative to the project root. */
export const CONFIG_REFERENCE_PAGE = "docs/configuration-reference.md";

/** The command that writes the page, named in its header and in the drift test's message. */
export const CONFIG_REFERENCE_COMMAND = "npm run docs:config";

interface Row {
  readonly key: string;
  readonly type: string;
  readonly fallback: string;
  readonly meaning: string;
}

interface SchemaParts {
  readonly type: string;
  readonly options?: readonly unknown[];
  readonly pipe?: readonly { readonly type: string; readonly requirement?: unknown }[];
}

const parts = (schema: AnySchema): SchemaParts => unwrap(schema) as unknown as SchemaParts;

const inline = (value: unknown): string =>
  stringify(value, { collectionStyle: "flow", lineWidth: 0 }).trimEnd();

const code = (text: string): string => `\`${text}\``;

/** A table cell: pipes escaped, so a meaning that mentions `a|b` does not split the row. */
const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** Dotted key under `Service`, with `[]` after a list whose items are objects. */
const keyOf = (path: readonly string[]): string => path.join(".").replaceAll(".[]", "[]");

function numberType(schema: SchemaParts): string {
  const requirement = (name: string) => schema.pipe?.find((step) => step.type === name)?.requirement;
  const integer = schema.pipe?.some((step) => step.type === "integer") === true;
  const min = requirement("min_value");
  const max = requirement("max_value");
  const name = integer ? "integer" : "number";
  if (min !== undefined && max !== undefined && max !== Number.MAX_SAFE_INTEGER)
    return `${name} ${min}–${max}`;
  if (min !== undefined) return `${name} ≥ ${min}`;
  return name;
}

/** The kind of value a setting takes, in a reader's words. */
function typeOf(schema: AnySchema): string {
  const s = parts(schema);
  switch (s.type) {
    case "number":
      return numberType(s);
    case "picklist":
      return `one of ${(s.options ?? []).map((option) => code(String(option))).join(", ")}`;
    case "union":
      return (s.options ?? []).map((option) => typeOf(option as AnySchema)).join(" or ");
    case "array": {
      const item = arrayItem(schema);
      if (item === undefined) return "list";
      return objectEntries(item) === undefined ? `list of ${typeOf(item)}` : "list of items (below)";
    }
    case "record": {
      const value = recordValue(schema);
      return value === undefined ? "map" : `map of name → ${typeOf(value)}`;
    }
    default:
      return s.type;
  }
}

function defaultText(schema: AnySchema): string {
  if (isRequiredWhenActive(schema)) return "none: required when its section is on";
  const fallback = schemaDefault(schema);
  return fallback === undefined ? "none: required in each item" : code(inline(fallback));
}

function rowsOf(schema: AnySchema, path: readonly string[]): Row[] {
  const entries = objectEntries(schema);
  if (entries !== undefined) {
    const doc = path.length > 1 ? documentationOf(path) : undefined;
    const own: Row[] =
      doc === undefined ? [] : [{ key: keyOf(path), type: "section", fallback: "—", meaning: doc }];
    return [...own, ...Object.entries(entries).flatMap(([key, child]) => rowsOf(child, [...path, key]))];
  }
  const row: Row = {
    key: keyOf(path),
    type: typeOf(schema),
    fallback: defaultText(schema),
    meaning: documentationOf(path) ?? "",
  };
  const item = arrayItem(schema);
  if (item === undefined || objectEntries(item) === undefined) return [row];
  return [row, ...rowsOf(item, [...path, "[]"])];
}

function table(rows: readonly Row[]): string[] {
  return [
    "| key | type | default | meaning |",
    "|---|---|---|---|",
    ...rows.map((r) => `| ${code(r.key)} | ${cell(r.type)} | ${cell(r.fallback)} | ${cell(r.meaning)} |`),
  ];
}

/** Every leaf of the embedded default configuration, as `[key, value]`. */
function embeddedLeaves(value: unknown, path: readonly string[] = []): [string, unknown][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [[path.join("."), value]];
  return Object.entries(value).flatMap(([key, child]) => embeddedLeaves(child, [...path, key]));
}

const HEADER = [
  "# Configuration reference",
  "",
  "For whoever writes or reviews a Steward configuration file: every setting under `Service`, the",
  "kind of value it takes, its default and what it does.",
  "",
  `<!-- Generated by \`${CONFIG_REFERENCE_COMMAND}\` from the configuration schema (core/config/schema/) and`,
  "the settings' documentation (core/config/template-docs.ts). Do not edit it by hand: change those",
  "and run the command again. A unit test fails when this page and the schema disagree. -->",
  "",
  "How the file works (defaults, validation, secrets from the environment, relative paths) is in",
  "[Configuration](configuration.md). A key written `list[].name` is a member of each item of the",
  "list `list`. A default is what a key takes when the file leaves it out; `npm start` without a",
  "file runs the [embedded default configuration](#the-embedded-default-configuration), which",
  "differs in a few keys.",
  "",
];

function embeddedSection(): string[] {
  const rows = embeddedLeaves(EMBEDDED_CONFIG.Service).flatMap(([key, value]) => {
    const setting = schemaAt(serviceSchema, key.split("."));
    const fallback = setting === undefined ? undefined : schemaDefault(setting);
    if (inline(value) === inline(fallback)) return [];
    return [`| ${code(key)} | ${code(inline(value))} | ${code(inline(fallback))} |`];
  });
  return [
    "## The embedded default configuration",
    "",
    "What `npm start` runs without `--config`, and the values `steward init-config` prints. It",
    "needs no other server. Where it differs from the defaults above:",
    "",
    "| key | embedded configuration | default when the key is left out |",
    "|---|---|---|",
    ...rows,
    "",
  ];
}

/** The whole page, Markdown text ending in a newline. */
export function renderConfigReference(): string {
  const entries = Object.entries(objectEntries(serviceSchema) ?? {});
  const topLevel = entries.filter(([, schema]) => objectEntries(schema) === undefined);
  const sections = entries.filter(([, schema]) => objectEntries(schema) !== undefined);
  const out = [...HEADER, "## Sections", ""];
  out.push("- [Top-level settings](#top-level-settings)");
  for (const [key] of sections) out.push(`- [${key}](#${key.toLowerCase()})`);
  out.push("- [The embedded default configuration](#the-embedded-default-configuration)", "");
  out.push("## Top-level settings", "");
  out.push(...table(topLevel.flatMap(([key, schema]) => rowsOf(schema, [key]))), "");
  for (const [key, schema] of sections) {
    out.push(`## ${key}`, "");
    const doc = documentationOf([key]);
    if (doc !== undefined) out.push(doc, "");
    out.push(...table(rowsOf(schema, [key])), "");
  }
  out.push(...embeddedSection());
  return `${out.join("\n").trimEnd()}\n`;
}
