/**
 * Aliases (`*anchor`) and merge keys (`<<: *anchor`) expanded into plain copies before the rules
 * run. The rules rename keys by where they stand in the file, while an anchor's keys stand in one
 * place and its aliases in others; an anchor may even sit in a key that is left out. A copy at
 * each place converts like any other key, at the cost of the file's anchors.
 */
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Pair,
  type Scalar,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";

const keyOf = (pair: Pair) => (isScalar(pair.key) ? String(pair.key.value) : undefined);

/** The pairs a `<<` brings in: of each merged map in order, those whose keys are not yet set. */
function mergedPairs(map: YAMLMap, merge: Pair): Pair[] {
  const sources = isSeq(merge.value) ? merge.value.items : [merge.value];
  const taken = new Set(map.items.flatMap((pair) => (isPair(pair) && pair !== merge ? [keyOf(pair)] : [])));
  const added: Pair[] = [];
  for (const source of sources) {
    if (!isMap(source)) continue;
    for (const pair of source.items) {
      const key = isPair(pair) ? keyOf(pair) : undefined;
      if (key === undefined || taken.has(key)) continue;
      taken.add(key);
      added.push((pair as Pair).clone());
    }
  }
  return added;
}

/** Replaces every alias by a copy of its anchored node, then every merge key by the pairs it brings in. */
export function expandAliases(doc: Document): void {
  visit(doc, {
    Alias(_key, alias) {
      const target = alias.resolve(doc);
      if (target === undefined) return undefined;
      // clone() is typed as the node base; it copies the node's own class.
      const copy = target.clone() as Scalar | YAMLMap | YAMLSeq;
      delete copy.anchor;
      return copy;
    },
  });
  visit(doc, {
    Map(_key, map) {
      const index = map.items.findIndex((pair) => isPair(pair) && keyOf(pair as Pair) === "<<");
      if (index === -1) return;
      const merge = map.items[index] as Pair;
      map.items.splice(index, 1, ...(mergedPairs(map, merge) as YAMLMap["items"]));
    },
  });
}
