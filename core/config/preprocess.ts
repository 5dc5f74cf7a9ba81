/**
 * First pass over the raw tree, driven by the schema: reports unknown keys (with a suggestion)
 * everywhere, switched-off sections included (a misspelt `enabled` would otherwise leave a
 * feature silently off), and non-boolean gate flags; replaces disabled sections by
 * `{enable: false}` so that their values take their defaults unchecked (placeholders may stay
 * there); turns `null` lists/maps (YAML with every item commented out) into empty ones;
 * substitutes `${ENV}` references in the sections that are validated; and lists the files those
 * sections name, and the listeners' enabled `tls` blocks, for the file checks of the same pass.
 */
import { describeValue } from "./describe-value.ts";
import { type Env, substituteEnv } from "./env.ts";
import { type Activity, type Gate, gateFor, isPlainObject, rawAt } from "./gates.ts";
import type { NamedListenerTls } from "./listener-tls.ts";
import type { NamedFile } from "./named-file.ts";
import { type ConfigProblem, formatPath, type PathSegment, problem } from "./problems.ts";
import {
  type AnySchema,
  arrayItem,
  fileRule,
  isListenerTls,
  isRequiredWhenActive,
  objectEntries,
  recordValue,
  schemaDefault,
  schemaType,
} from "./schema-walk.ts";
import { suggestKey } from "./suggest.ts";

interface WalkContext {
  readonly env: Env;
  readonly activity: Activity;
  readonly root: unknown;
  readonly problems: ConfigProblem[];
  readonly files: NamedFile[];
  readonly listenerTls: NamedListenerTls[];
}

export interface Preprocessed {
  /** The tree valibot validates. */
  readonly tree: unknown;
  /** The files named by the validated sections. */
  readonly files: readonly NamedFile[];
  /** The enabled `tls` blocks of the validated listeners, `${ENV}` references substituted. */
  readonly listenerTls: readonly NamedListenerTls[];
}

export function preprocessService(
  service: unknown,
  schema: AnySchema,
  env: Env,
  activity: Activity,
  problems: ConfigProblem[],
): Preprocessed {
  const ctx: WalkContext = { env, activity, root: service, problems, files: [], listenerTls: [] };
  const tree = walk(schema, service, ["Service"], [], ctx);
  return { tree, files: ctx.files, listenerTls: ctx.listenerTls };
}

function reportUnknownKey(
  key: string,
  known: readonly string[],
  path: PathSegment[],
  ctx: WalkContext,
): void {
  const hint = suggestKey(key, known);
  ctx.problems.push(
    problem([...path, key], hint === undefined ? "unknown key" : `unknown key (did you mean "${hint}"?)`),
  );
}

/**
 * Key names only, for a section that is switched off: its values are not checked (placeholders
 * may stay until it is switched on), but a key the schema does not know is reported all the same.
 */
function checkKeyNames(schema: AnySchema, raw: unknown, path: PathSegment[], ctx: WalkContext): void {
  const entries = objectEntries(schema);
  if (entries !== undefined) {
    if (isPlainObject(raw)) checkEntryNames(entries, raw, path, ctx);
    return;
  }
  const item = arrayItem(schema);
  if (item !== undefined) {
    if (Array.isArray(raw)) {
      raw.forEach((value, i) => {
        checkKeyNames(item, value, [...path, i], ctx);
      });
    }
    return;
  }
  const recordItem = recordValue(schema);
  if (recordItem !== undefined && isPlainObject(raw)) {
    for (const [key, value] of Object.entries(raw)) checkKeyNames(recordItem, value, [...path, key], ctx);
  }
}

function checkEntryNames(
  entries: Record<string, AnySchema>,
  raw: Record<string, unknown>,
  path: PathSegment[],
  ctx: WalkContext,
): void {
  const known = Object.keys(entries);
  for (const [key, value] of Object.entries(raw)) {
    const child = entries[key];
    if (child === undefined) reportUnknownKey(key, known, path, ctx);
    else checkKeyNames(child, value, [...path, key], ctx);
  }
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
    const out = walkObject(entries, raw, path, schemaPath, ctx);
    if (isListenerTls(schema)) noteListenerTls(out, path, ctx);
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
  if (typeof raw === "string") return walkText(schema, raw, path, ctx);
  return raw;
}

function walkObject(
  entries: Record<string, AnySchema>,
  raw: Record<string, unknown>,
  path: PathSegment[],
  schemaPath: string[],
  ctx: WalkContext,
): unknown {
  const gate = gateFor(schemaPath.join("."), entries);
  if (gate !== undefined && !gateActive(gate, raw, entries, path, ctx)) {
    checkEntryNames(entries, raw, path, ctx);
    return gate.flagKey === undefined ? {} : { [gate.flagKey]: false };
  }
  const out: Record<string, unknown> = {};
  const known = Object.keys(entries);
  for (const [key, value] of Object.entries(raw)) {
    const child = entries[key];
    if (child === undefined) {
      reportUnknownKey(key, known, path, ctx);
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
    if (value !== undefined && value !== null && value !== "") continue;
    if (isRequiredWhenActive(child)) ctx.problems.push(problem([...path, key], "required"));
    const whenEmpty = fileRule(child)?.whenEmpty;
    if (whenEmpty !== undefined) ctx.files.push({ path: formatPath([...path, key]), file: "", whenEmpty });
  }
  return out;
}

/**
 * An enabled `tls` block, listed with its values when they are what the schema takes (a value
 * of another type is the schema's problem to report; the block is then not opened).
 */
function noteListenerTls(out: unknown, path: PathSegment[], ctx: WalkContext): void {
  if (!isPlainObject(out) || out.enable !== true) return;
  const text = (key: string) => (out[key] === undefined ? "" : out[key]);
  const settings = {
    enable: true,
    cert: text("cert"),
    key: text("key"),
    pfx: text("pfx"),
    ca: text("ca"),
    passphrase: text("passphrase"),
  };
  if (Object.values(settings).some((value) => typeof value !== "string" && value !== true)) return;
  ctx.listenerTls.push({ path: formatPath(path), settings: settings as NamedListenerTls["settings"] });
}

/** A string of a validated section: `${ENV}` substituted, and listed when it names a file. */
function walkText(schema: AnySchema, raw: string, path: PathSegment[], ctx: WalkContext): string {
  const result = substituteEnv(raw, ctx.env);
  if (!result.ok) {
    for (const name of result.missing)
      ctx.problems.push(problem(path, `environment variable ${name} is not set`));
    return raw;
  }
  if (result.value !== "" && fileRule(schema) !== undefined)
    ctx.files.push({ path: formatPath(path), file: result.value });
  return result.value;
}
