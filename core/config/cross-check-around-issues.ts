/**
 * The rules between settings (cross-checks.ts) run on the typed config, which an invalid value
 * prevents. So that check-config still reports them in the same pass as the invalid values, each
 * invalid value is taken out (its setting takes its default) and the rules run on the result. A
 * rule's problem is kept only when it cannot stem from a default standing in: it is not at, above
 * or below a setting taken out, and its message names no section that held one. When a value
 * cannot be taken out (a list item, a setting without a default), the rules wait for the run after
 * the values are fixed, as they always did.
 */
import * as v from "valibot";
import { crossCheck } from "./cross-checks.ts";
import { isPlainObject } from "./gates.ts";
import { type ConfigProblem, formatPath, type PathSegment } from "./problems.ts";
import { serviceSchema } from "./schema/config.ts";

/** `tree` is what the schema refused; `invalid` the paths (under `Service`) of its issues. */
export function crossCheckAroundIssues(
  tree: unknown,
  invalid: readonly (readonly PathSegment[])[],
): ConfigProblem[] {
  const repaired = withoutValues(tree, invalid);
  if (repaired === undefined) return [];
  const result = v.safeParse(serviceSchema, repaired, { abortEarly: false });
  if (!result.success) return [];
  const taken = invalid.map((path) => formatPath(["Service", ...path]));
  const sections = new Set(invalid.map((path) => String(path[0])));
  return crossCheck(result.output).filter(
    (found) =>
      !taken.some((path) => related(found.path, path)) &&
      ![...sections].some((section) => new RegExp(`\\b${section}\\b`).test(found.message)),
  );
}

/** One path is the other, or lies inside it. */
function related(a: string, b: string): boolean {
  const inside = (outer: string, inner: string) =>
    inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return inside(a, b) || inside(b, a);
}

/** A copy without the values at `paths`; undefined when one of them is not a mapping's member. */
function withoutValues(tree: unknown, paths: readonly (readonly PathSegment[])[]): unknown {
  const copy = structuredClone(tree);
  for (const path of paths) {
    const key = path[path.length - 1];
    let parent: unknown = copy;
    for (const segment of path.slice(0, -1)) {
      parent =
        isPlainObject(parent) || Array.isArray(parent)
          ? (parent as Record<PathSegment, unknown>)[segment]
          : undefined;
    }
    if (typeof key !== "string" || !isPlainObject(parent)) return undefined;
    delete parent[key];
  }
  return copy;
}
