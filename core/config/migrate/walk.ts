/**
 * The schema-driven walk shared by every product: converts a product's mapping in place, key by
 * key, with the product's rules (./product-rules.ts), against Steward's schema. A key whose
 * place Steward's schema lacks is left out with the reason; moved keys are set aside and placed
 * after the walk (./place-moves.ts), because their destination may be a section still to come.
 */
import { isMap, isPair, isScalar, isSeq, type Pair, type YAMLMap } from "yaml";
import { formatPath, type PathSegment } from "../problems.ts";
import { type AnySchema, arrayItem, objectEntries, recordValue, schemaAt } from "../schema-walk.ts";
import type { DroppedKey, MigrationNote, ProductRules } from "./product-rules.ts";

/** A key set aside by a move rule: its pair, where it stood, and where it goes. */
export interface PendingMove {
  readonly pair: Pair;
  readonly from: PathSegment[];
  readonly to: readonly string[];
}

export interface Walk {
  readonly rules: ProductRules;
  readonly schema: AnySchema;
  readonly dropped: DroppedKey[];
  readonly notes: MigrationNote[];
  readonly moves: PendingMove[];
  renamed: number;
}

const pattern = (path: readonly PathSegment[]) =>
  path.map((segment) => (typeof segment === "number" ? "[]" : segment)).join(".");

const schemaPattern = (path: readonly PathSegment[]) =>
  path.map((segment) => (typeof segment === "number" ? "[]" : String(segment)));

/** Steward's schema at a result path (below `Service`), or undefined where it has no setting. */
export const schemaAtTarget = (walk: Walk, target: readonly PathSegment[]) =>
  schemaAt(walk.schema, schemaPattern(target));

/** Where Steward's schema holds a user-named map (server tags, headers): keys are data there. */
function isRecordAt(schema: AnySchema | undefined): boolean {
  return schema !== undefined && recordValue(schema) !== undefined;
}

export function keyName(pair: Pair): string | undefined {
  return isScalar(pair.key) && (typeof pair.key.value === "string" || typeof pair.key.value === "number")
    ? String(pair.key.value)
    : undefined;
}

/** The source path as the output names it, e.g. `Butler.influxDb.hostIP`. */
export const sourcePath = (walk: Walk, from: readonly PathSegment[]) =>
  formatPath([walk.rules.root, ...from]);

/** Converts a value found at `source` in the product's file and `target` in Steward's. */
export function convertValue(node: unknown, source: PathSegment[], target: PathSegment[], walk: Walk): void {
  const schema = schemaAtTarget(walk, target);
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

/**
 * Sets a pair aside for its move. The YAML library keeps the comment above a mapping's first
 * member on the mapping itself, so it is carried over to the key, to go where the key goes.
 */
function setAside(map: YAMLMap, pair: Pair, from: PathSegment[], to: readonly string[], walk: Walk): void {
  if (map.items[0] === pair && map.commentBefore && isScalar(pair.key)) {
    pair.key.commentBefore = [map.commentBefore, pair.key.commentBefore].filter(Boolean).join("\n");
    map.commentBefore = null;
  }
  walk.moves.push({ pair, from, to });
}

/**
 * Sets aside the members of a section about to be left out that have a move rule (at any
 * depth): a setting with a home elsewhere goes there even when its neighbours have none.
 */
export function harvestMoves(map: YAMLMap, source: PathSegment[], walk: Walk): void {
  map.items = map.items.filter((pair) => {
    if (!isPair(pair)) return true;
    const key = keyName(pair);
    if (key === undefined) return true;
    const from = [...source, key];
    const rule = walk.rules.keyRules.get(pattern(from));
    if (rule?.kind === "move") {
      setAside(map, pair, from, rule.to, walk);
      return false;
    }
    if (isMap(pair.value)) harvestMoves(pair.value, from, walk);
    return true;
  }) as YAMLMap["items"];
}

/** Converts the members of `map`, found at `source` in the product's file and `target` in Steward's. */
export function convertMap(map: YAMLMap, source: PathSegment[], target: PathSegment[], walk: Walk): void {
  const kept: unknown[] = [];
  for (const pair of map.items) {
    if (!isPair(pair)) continue;
    const key = keyName(pair);
    const from = [...source, key ?? String(pair.key)];
    const display = sourcePath(walk, from);
    const rule = walk.rules.keyRules.get(pattern(from));
    if (key === undefined || rule?.kind === "drop") {
      walk.dropped.push({ path: display, reason: rule?.kind === "drop" ? rule.reason : "not a plain key" });
      continue;
    }
    if (rule?.kind === "move") {
      setAside(map, pair, from, rule.to, walk);
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
    if (schemaAtTarget(walk, to) === undefined) {
      if (isMap(pair.value)) harvestMoves(pair.value, from, walk);
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
    convertKept(pair, from, to, walk);
    kept.push(pair);
  }
  map.items = kept as YAMLMap["items"];
}

/** A kept pair: its value transform, its behaviour note, then its members. */
export function convertKept(pair: Pair, from: PathSegment[], to: PathSegment[], walk: Walk): void {
  applyValueRule(pair, from, to, walk);
  const note = walk.rules.behaviourNotes.get(pattern(from));
  if (note !== undefined && isScalar(pair.value) && pair.value.value === true) {
    walk.notes.push({ path: sourcePath(walk, from), message: note });
  }
  convertValue(pair.value, from, to, walk);
}

function applyValueRule(pair: Pair, from: PathSegment[], to: PathSegment[], walk: Walk): void {
  const transform = walk.rules.valueRules.get(pattern(from));
  if (transform === undefined || !isScalar(pair.value)) return;
  const change = transform(pair.value.value);
  if (change === undefined) return;
  pair.value.value = change.value;
  walk.notes.push({ path: formatPath(["Service", ...to]), message: change.note });
}
