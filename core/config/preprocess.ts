/**
 * First pass over the raw tree, driven by the schema: reports unknown keys (with a suggestion)
 * and non-boolean gate flags, replaces disabled sections by `{enable: false}` so that they take
 * their defaults unvalidated, turns `null` lists/maps (YAML with every item commented out) into
 * empty ones, and substitutes `${ENV}` references in the sections that are validated.
 */
import { type Env, substituteEnv } from "./env.ts";
import { type Activity, type Gate, gateFor, isPlainObject, rawAt } from "./gates.ts";
import { type ConfigProblem, type PathSegment, problem } from "./problems.ts";
import {
  type AnySchema,
  arrayItem,
  isRequiredWhenActive,
  objectEntries,
  recordValue,
  schemaDefault,
  schemaType,
} from "./schema-walk.ts";
import { suggestKey } from "./suggest.ts";

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

interface WalkContext {
  readonly env: Env;
  readonly activity: Activity;
  readonly root: unknown;
  readonly problems: ConfigProblem[];
}

export function preprocessService(
  service: unknown,
  schema: AnySchema,
  env: Env,
  activity: Activity,
  problems: ConfigProblem[],
): unknown {
  const ctx: WalkContext = { env, activity, root: service, problems };
  return walk(schema, service, ["Service"], [], ctx);
}

function readFlag(
  node: Record<string, unknown>,
  key: string,
  entries: Record<string, AnySchema>,
  path: PathSegment[],
  ctx: WalkContext,
): boolean {
  const raw = node[key];
  if (raw === undefined) {
    const child = entries[key];
    return child !== undefined && schemaDefault(child) === true;
  }
  if (typeof raw === "boolean") return raw;
  ctx.problems.push(problem([...path, key], `expected boolean, received ${describeValue(raw)}`));
  return false;
}

function gateActive(
  gate: Gate,
  node: Record<string, unknown>,
  entries: Record<string, AnySchema>,
  path: PathSegment[],
  ctx: WalkContext,
): boolean {
  const own = gate.flagKey === undefined ? false : readFlag(node, gate.flagKey, entries, path, ctx);
  const active = gate.isActive(own, ctx.activity, ctx.root);
  if (!active) {
    for (const flag of gate.decidingFlags ?? []) {
      const raw = rawAt(node, flag);
      if (raw !== undefined && typeof raw !== "boolean") {
        ctx.problems.push(
          problem([...path, ...flag.split(".")], `expected boolean, received ${describeValue(raw)}`),
        );
      }
    }
  }
  return active;
}

function walk(
  schema: AnySchema,
  raw: unknown,
  path: PathSegment[],
  schemaPath: string[],
  ctx: WalkContext,
): unknown {
  const type = schemaType(schema);
  if (raw === undefined) {
    // An absent section is walked as its default (`{}`), so that an active section's gate and
    // required settings are checked even when the user wrote nothing for it.
    const fallback = schemaDefault(schema);
    if (type !== "object" || !isPlainObject(fallback) || Object.keys(fallback).length > 0) return undefined;
    return walk(schema, {}, path, schemaPath, ctx);
  }
  if (raw === null) {
    // A key whose items are all commented out; only defaulted lists/maps, so that a null list
    // item (`- `) is still reported as the wrong type.
    const fallback = schemaDefault(schema);
    if (type === "array" && Array.isArray(fallback)) return [];
    if ((type === "object" || type === "record") && isPlainObject(fallback))
      return walk(schema, {}, path, schemaPath, ctx);
    return null;
  }
  const entries = objectEntries(schema);
  if (entries !== undefined) {
    if (!isPlainObject(raw)) return raw;
    const gate = gateFor(schemaPath.join("."), entries);
    if (gate !== undefined && !gateActive(gate, raw, entries, path, ctx)) {
      return gate.flagKey === undefined ? {} : { [gate.flagKey]: false };
    }
    const out: Record<string, unknown> = {};
    const known = Object.keys(entries);
    for (const [key, value] of Object.entries(raw)) {
      const child = entries[key];
      if (child === undefined) {
        const hint = suggestKey(key, known);
        ctx.problems.push(
          problem(
            [...path, key],
            hint === undefined ? "unknown key" : `unknown key (did you mean "${hint}"?)`,
          ),
        );
        continue;
      }
      // A non-boolean gate flag was reported by the gate already; do not report it twice.
      const badFlag = key === gate?.flagKey && typeof value !== "boolean";
      out[key] = badFlag ? false : walk(child, value, [...path, key], [...schemaPath, key], ctx);
    }
    for (const [key, child] of Object.entries(entries)) {
      if (key in raw) continue;
      const value = walk(child, undefined, [...path, key], [...schemaPath, key], ctx);
      if (value !== undefined) out[key] = value;
    }
    // After substitution, so that `${TOKEN}` with TOKEN set to "" counts as missing.
    for (const [key, child] of Object.entries(entries)) {
      const value = out[key];
      if ((value === undefined || value === null || value === "") && isRequiredWhenActive(child)) {
        ctx.problems.push(problem([...path, key], "required"));
      }
    }
    return out;
  }
  const item = arrayItem(schema);
  if (item !== undefined) {
    if (!Array.isArray(raw)) return raw;
    return raw.map((value, i) => walk(item, value, [...path, i], [...schemaPath, "[]"], ctx));
  }
  const recordItem = recordValue(schema);
  if (recordItem !== undefined) {
    if (!isPlainObject(raw)) return raw;
    return Object.fromEntries(
      Object.entries(raw).map(([k, value]) => [
        k,
        walk(recordItem, value, [...path, k], [...schemaPath, "[]"], ctx),
      ]),
    );
  }
  if (typeof raw === "string") {
    const result = substituteEnv(raw, ctx.env);
    if (result.ok) return result.value;
    for (const name of result.missing)
      ctx.problems.push(problem(path, `environment variable ${name} is not set`));
    return raw;
  }
  return raw;
}
