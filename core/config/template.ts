/**
 * The commented configuration template printed by `steward init-config`: every setting, its
 * default and meaning, generated from the schema so it cannot miss one. Values are those of the
 * embedded default config (features that need other servers are off), so the template passes
 * `steward check-config` as printed.
 */
import { stringify } from "yaml";
import { defaultConfig } from "./defaults.ts";
import { serviceSchema } from "./schema/config.ts";
import { type AnySchema, arrayItem, listLeaves, objectEntries, schemaDefault } from "./schema-walk.ts";
import { envRef, LIST_EXAMPLES, lookupByPath, settingDocs } from "./template-docs.ts";

const HEADER = [
  "# Steward configuration file (YAML, extension .yaml or .yml). Check it with: npx steward check-config FILE",
  "#",
  "# - Every setting is optional: a missing one takes the default shown in its comment.",
  "# - Names are case sensitive; unknown keys are errors, in every section.",
  "# - A section whose `enable` is not true has only its key names checked, so placeholders may stay",
  "#   in its values.",
  `# - Secrets (tokens, passwords, API keys, passphrases) can be given as ${envRef("ENV_NAME")}; the value is`,
  "#   then read from the environment when the section is enabled.",
  "# - Relative paths resolve from the working directory.",
];

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

let docs: Readonly<Record<string, string>> | undefined;

/** A setting's documentation; `enable` flags without their own line get a generic one. */
export function documentationOf(path: readonly string[]): string | undefined {
  docs ??= settingDocs();
  const doc = lookupByPath(docs, path);
  if (doc !== undefined) return doc;
  const parent = path[path.length - 2];
  return path[path.length - 1] === "enable" && parent !== undefined ? `Turn ${parent} on or off.` : undefined;
}

function inline(value: unknown): string {
  return stringify(value, { collectionStyle: "flow", lineWidth: 0 }).trimEnd();
}

function block(value: unknown, pad: string, prefix = ""): string[] {
  return stringify(value, { lineWidth: 0 })
    .trimEnd()
    .split("\n")
    .map((line) => `${pad}${prefix}${line}`);
}

/** The value as it is written in YAML (the destination types are a comma-delimited string). */
function fileForm(): Record<string, unknown> {
  const config = defaultConfig();
  const tree: Record<string, unknown> = structuredClone(config);
  const destination = (tree.auditEvents as { destination: Record<string, unknown> }).destination;
  destination.type = config.auditEvents.destination.type.join(",");
  return tree;
}

function renderList(
  key: string,
  schema: AnySchema,
  item: AnySchema,
  value: unknown,
  path: string[],
  pad: string,
  out: string[],
): void {
  out.push(`${pad}# Each item:`);
  for (const leaf of listLeaves(item)) {
    const name = leaf.path.join(".").replaceAll(".[]", "[]");
    out.push(`${pad}#   ${name}: ${documentationOf([...path, "[]", ...leaf.path]) ?? ""}`);
  }
  if (Array.isArray(value) && value.length > 0) {
    out.push(`${pad}${key}:`);
    out.push(...block(value, `${pad}  `));
    return;
  }
  out.push(`${pad}${key}: ${inline(value ?? schemaDefault(schema))}`);
  const example = lookupByPath(LIST_EXAMPLES, path);
  if (example !== undefined) {
    out.push(`${pad}# Example:`);
    out.push(...block({ [key]: example }, pad, "# "));
  }
}

function renderEntries(
  entries: Record<string, AnySchema>,
  value: unknown,
  path: string[],
  depth: number,
  out: string[],
): void {
  const pad = "  ".repeat(depth);
  const values = isRecord(value) ? value : {};
  for (const [key, schema] of Object.entries(entries)) {
    const childPath = [...path, key];
    const doc = documentationOf(childPath);
    const childEntries = objectEntries(schema);
    if (childEntries !== undefined) {
      if (doc !== undefined) out.push(`${pad}# ${doc}`);
      out.push(`${pad}${key}:`);
      renderEntries(childEntries, values[key], childPath, depth + 1, out);
      continue;
    }
    const fallback = schemaDefault(schema);
    const defaultText = fallback === undefined ? "" : ` Default: ${inline(fallback)}`;
    out.push(`${pad}# ${doc ?? ""}${defaultText}`);
    const item = arrayItem(schema);
    if (item !== undefined && objectEntries(item) !== undefined) {
      renderList(key, schema, item, values[key], childPath, pad, out);
    } else {
      out.push(`${pad}${key}: ${inline(values[key] ?? fallback)}`);
    }
  }
}

/** The complete commented template (YAML text ending in a newline). */
export function renderTemplate(): string {
  const out: string[] = [...HEADER, "", "Service:"];
  const entries = objectEntries(serviceSchema) ?? {};
  renderEntries(entries, fileForm(), [], 1, out);
  return `${out.join("\n")}\n`;
}
