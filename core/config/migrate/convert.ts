/**
 * Converts a Butler SOS configuration (YAML text, top key `Butler-SOS`) into a Steward one (top
 * key `Service`), pure: no file access. The YAML document is changed in place, key by key, with
 * the rules of ./rules.ts, so values keep their style and comments stay beside their keys
 * (aliases and merge keys are first expanded into copies: ./expand-aliases.ts). What
 * is left out, and every value that had to change, is returned with the reason, never silently.
 * Keys Steward has and Butler SOS lacks keep their defaults and are not written, except the two
 * listeners Steward would otherwise add (./additions.ts).
 */
import { type Document, isMap, isPair, isScalar, isSeq, type Pair, parseDocument, type YAMLMap } from "yaml";
import { formatPath, type PathSegment } from "../problems.ts";
import { serviceSchema } from "../schema/config.ts";
import { type AnySchema, arrayItem, objectEntries, recordValue, schemaAt } from "../schema-walk.ts";
import { addStewardOnlyChoices, adjustAcrossKeys } from "./additions.ts";
import { expandAliases } from "./expand-aliases.ts";
import { renderHeader } from "./header.ts";
import { BEHAVIOUR_NOTES, KEY_RULES, VALUE_RULES } from "./rules.ts";

/** The top-level key of a Butler SOS configuration. */
export const BUTLER_SOS_ROOT = "Butler-SOS";

/** A key of the source left out of the result. */
export interface DroppedKey {
  /** Its path in the source, e.g. `Butler-SOS.prometheus.nodeMetricsHost`. */
  readonly path: string;
  readonly reason: string;
}

/** A value changed, added or working differently, with the reason. */
export interface MigrationNote {
  /** A path in the result (`Service....`) or in the source (`Butler-SOS....`). */
  readonly path: string;
  readonly message: string;
}

export type MigrationResult =
  | { ok: true; text: string; dropped: DroppedKey[]; notes: MigrationNote[]; renamed: number }
  | { ok: false; message: string };

export interface MigrationOptions {
  /** Named in the header of the result, e.g. the file name given on the command line. */
  readonly sourceName: string;
  /** Steward's name and version, named in the header. */
  readonly convertedBy: string;
}

interface Walk {
  readonly dropped: DroppedKey[];
  readonly notes: MigrationNote[];
  renamed: number;
}

const pattern = (path: readonly PathSegment[]) =>
  path.map((segment) => (typeof segment === "number" ? "[]" : segment)).join(".");

const schemaPattern = (path: readonly PathSegment[]) =>
  path.map((segment) => (typeof segment === "number" ? "[]" : segment));

/** Where Steward's schema holds a user-named map (server tags, headers): keys are data there. */
function isRecordAt(schema: AnySchema | undefined): boolean {
  return schema !== undefined && recordValue(schema) !== undefined;
}

function keyName(pair: Pair): string | undefined {
  return isScalar(pair.key) && (typeof pair.key.value === "string" || typeof pair.key.value === "number")
    ? String(pair.key.value)
    : undefined;
}

function convertValue(node: unknown, source: PathSegment[], target: PathSegment[], walk: Walk): void {
  const schema = schemaAt(serviceSchema, schemaPattern(target).map(String));
  if (isMap(node)) {
    if (isRecordAt(schema)) return;
    convertMap(node, source, target, walk);
  } else if (isSeq(node)) {
    const item = schema === undefined ? undefined : arrayItem(schema);
    if (item === undefined || objectEntries(item) === undefined) return;
    node.items.forEach((child, i) => {
      if (isMap(child)) convertMap(child, [...source, i], [...target, i], walk);
    });
  }
}

/** Converts the members of `map`, found at `source` in Butler SOS and `target` in Steward. */
function convertMap(map: YAMLMap, source: PathSegment[], target: PathSegment[], walk: Walk): void {
  const kept: unknown[] = [];
  for (const pair of map.items) {
    if (!isPair(pair)) continue;
    const key = keyName(pair);
    const from = [...source, key ?? String(pair.key)];
    const display = formatPath([BUTLER_SOS_ROOT, ...from]);
    const rule = KEY_RULES.get(pattern(from));
    if (key === undefined || rule?.kind === "drop") {
      walk.dropped.push({ path: display, reason: rule?.kind === "drop" ? rule.reason : "not a plain key" });
      continue;
    }
    if (rule?.kind === "lift") {
      if (isMap(pair.value)) {
        convertMap(pair.value, from, target, walk);
        kept.push(...pair.value.items);
      }
      walk.renamed += 1;
      continue;
    }
    const name = rule?.kind === "rename" ? rule.to : key;
    const to = [...target, name];
    if (schemaAt(serviceSchema, schemaPattern(to).map(String)) === undefined) {
      walk.dropped.push({
        path: display,
        reason: `Steward has no setting ${formatPath(["Service", ...to])} (nor one it maps to)`,
      });
      continue;
    }
    if (name !== key && isScalar(pair.key)) {
      pair.key.value = name;
      walk.renamed += 1;
    }
    applyValueRule(pair, from, to, walk);
    if (BEHAVIOUR_NOTES.has(pattern(from)) && isScalar(pair.value) && pair.value.value === true) {
      walk.notes.push({ path: display, message: BEHAVIOUR_NOTES.get(pattern(from)) ?? "" });
    }
    convertValue(pair.value, from, to, walk);
    kept.push(pair);
  }
  map.items = kept as YAMLMap["items"];
}

function applyValueRule(pair: Pair, from: PathSegment[], to: PathSegment[], walk: Walk): void {
  const transform = VALUE_RULES.get(pattern(from));
  if (transform === undefined || !isScalar(pair.value)) return;
  const change = transform(pair.value.value);
  if (change === undefined) return;
  pair.value.value = change.value;
  walk.notes.push({ path: formatPath(["Service", ...to]), message: change.note });
}

function rootPair(doc: Document): Pair | undefined | string {
  const root = doc.contents;
  if (!isMap(root)) return "the file is not a YAML mapping";
  const pair = root.items.find((item) => isPair(item) && keyName(item) === BUTLER_SOS_ROOT);
  if (pair !== undefined) return pair as Pair;
  if (root.items.some((item) => isPair(item) && keyName(item) === "Service")) {
    return "the file is already a Steward configuration (top key Service); check it with steward check-config";
  }
  return `not a Butler SOS configuration: the top-level key ${BUTLER_SOS_ROOT} is missing`;
}

/** Converts Butler SOS YAML text; the result's text is a complete Steward configuration file. */
export function migrateButlerSosConfig(text: string, options: MigrationOptions): MigrationResult {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, merge: false });
  const error = doc.errors[0];
  if (error !== undefined) {
    const pos = error.linePos?.[0];
    const where = pos === undefined ? "" : ` at line ${pos.line}, column ${pos.col}`;
    return {
      ok: false,
      message: `YAML syntax error${where}: ${(error.message.split("\n")[0] ?? "").trim()}`,
    };
  }
  const found = rootPair(doc);
  if (typeof found === "string" || found === undefined) {
    return { ok: false, message: found ?? "the file is empty" };
  }
  expandAliases(doc);
  const walk: Walk = { dropped: [], notes: [], renamed: 0 };
  const root = doc.contents as YAMLMap;
  for (const other of root.items) {
    if (other !== found && isPair(other)) {
      walk.dropped.push({
        path: String(keyName(other) ?? other.key),
        reason: `not under ${BUTLER_SOS_ROOT}`,
      });
    }
  }
  root.items = [found];
  (found.key as { value: unknown }).value = "Service";
  if (!isMap(found.value)) return { ok: false, message: `${BUTLER_SOS_ROOT} must be a mapping` };
  convertMap(found.value, [], [], walk);
  walk.notes.push(...adjustAcrossKeys(doc), ...addStewardOnlyChoices(doc, found.value));
  doc.commentBefore = renderHeader(options, walk.dropped, doc.commentBefore);
  return {
    ok: true,
    text: doc.toString({ lineWidth: 0, flowCollectionPadding: false }),
    dropped: walk.dropped,
    notes: walk.notes,
    renamed: walk.renamed,
  };
}
