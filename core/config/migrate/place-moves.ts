/**
 * Places the keys that move rules set aside during the walk (./walk.ts) at their absolute place
 * below `Service`: the mappings on the way are created when missing, the key keeps its comments
 * and takes its new name, and its members are converted against Steward's schema there (which
 * may set aside further moves, placed in turn). When two sources land on one place, the first
 * keeps it and the second is left out with the reason: Steward has one setting where the product
 * had two, and silently picking one would hide the difference.
 */
import { isMap, isPair, isScalar, Pair, Scalar, YAMLMap } from "yaml";
import { formatPath } from "../problems.ts";
import {
  convertKept,
  harvestMoves,
  keyName,
  type PendingMove,
  schemaAtTarget,
  sourcePath,
  type Walk,
} from "./walk.ts";

const sameValue = (a: unknown, b: unknown) =>
  isScalar(a) && isScalar(b) ? a.value === b.value : JSON.stringify(a) === JSON.stringify(b);

function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((item) => isPair(item) && keyName(item) === key) as Pair | undefined;
}

/** The mapping at `path` below `service`, created where missing; undefined if a value is in the way. */
function mappingAt(service: YAMLMap, path: readonly string[]): YAMLMap | undefined {
  let map = service;
  for (const key of path) {
    const pair = findPair(map, key);
    if (pair === undefined) {
      const created = new YAMLMap();
      const name = new Scalar(key);
      // A section of its own at the top level, set apart by a blank line as the others are.
      name.spaceBefore = map === service;
      map.items.push(new Pair(name, created) as YAMLMap["items"][number]);
      map = created;
    } else if (isMap(pair.value)) {
      map = pair.value;
    } else {
      return undefined;
    }
  }
  return map;
}

/** Adds the members of a moved mapping to the one already at its place, member by member. */
function mergeInto(existing: YAMLMap, moved: PendingMove, walk: Walk): void {
  const incoming = moved.pair.value as YAMLMap;
  for (const item of incoming.items) {
    if (!isPair(item)) continue;
    const key = keyName(item) ?? String(item.key);
    const present = findPair(existing, key);
    if (present === undefined) {
      existing.items.push(item);
      continue;
    }
    const place = formatPath(["Service", ...moved.to, key]);
    walk.dropped.push({
      path: sourcePath(walk, [...moved.from, key]),
      reason: sameValue(present.value, item.value)
        ? `${place} already has this value from another key`
        : `${place} is already set from another key, and Steward has one setting for both`,
    });
  }
}

function place(service: YAMLMap, moved: PendingMove, walk: Walk): void {
  const { pair, to, from } = moved;
  const display = sourcePath(walk, from);
  const target = formatPath(["Service", ...to]);
  const parent = mappingAt(service, to.slice(0, -1));
  const name = to.at(-1) ?? "";
  if (parent === undefined) {
    walk.dropped.push({ path: display, reason: `a value stands where ${target} would go` });
    return;
  }
  const present = findPair(parent, name);
  if (present === undefined) {
    if (isScalar(pair.key)) {
      pair.key.value = name;
      // A blank line sets apart a section at the top level, never the first member of a mapping.
      pair.key.spaceBefore = parent === service || (parent.items.length > 0 && pair.key.spaceBefore === true);
    }
    parent.items.push(pair as YAMLMap["items"][number]);
  } else if (isMap(present.value) && isMap(pair.value)) {
    mergeInto(present.value, moved, walk);
  } else {
    walk.dropped.push({
      path: display,
      reason: sameValue(present.value, pair.value)
        ? `${target} already has this value from another key`
        : `${target} is already set from another key, and Steward has one setting for both`,
    });
  }
}

/** Places every pending move (and those their members set aside), in the order the walk met them. */
export function placeMoves(service: YAMLMap, walk: Walk): void {
  for (let moved = walk.moves.shift(); moved !== undefined; moved = walk.moves.shift()) {
    if (schemaAtTarget(walk, moved.to) === undefined) {
      // Its members may still have a home of their own.
      if (isMap(moved.pair.value)) harvestMoves(moved.pair.value, moved.from, walk);
      walk.dropped.push({
        path: sourcePath(walk, moved.from),
        reason: `Steward has no setting ${formatPath(["Service", ...moved.to])} (nor one it maps to)`,
      });
      continue;
    }
    walk.renamed += 1;
    convertKept(moved.pair, moved.from, [...moved.to], walk);
    place(service, moved, walk);
  }
}
