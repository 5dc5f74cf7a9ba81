/**
 * Introspection of valibot schemas: unwrap optional/nullable wrappers, read object entries, array
 * items and defaults. Valibot's `object` strips unknown keys, so unknown-key detection, gating of
 * disabled sections and the template all walk the schema with these helpers instead.
 */
import type * as v from "valibot";
import { LISTENER_TLS_MARKER } from "./schema/listener-tls.ts";

export type AnySchema = v.GenericSchema;

interface Introspectable {
  readonly type: string;
  readonly wrapped?: AnySchema;
  readonly default?: unknown;
  readonly entries?: Record<string, AnySchema>;
  readonly item?: AnySchema;
  readonly value?: AnySchema;
  readonly options?: readonly unknown[];
}

const view = (schema: AnySchema): Introspectable => schema as unknown as Introspectable;

const WRAPPERS = new Set(["optional", "nullable", "nullish", "exact_optional", "undefinedable"]);

/** The schema under optional/nullable wrappers. A pipe keeps its root schema's properties. */
export function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  for (;;) {
    const w = view(s);
    if (!WRAPPERS.has(w.type) || w.wrapped === undefined) return s;
    s = w.wrapped;
  }
}

export function schemaType(schema: AnySchema): string {
  return view(unwrap(schema)).type;
}

export function objectEntries(schema: AnySchema): Record<string, AnySchema> | undefined {
  const s = view(unwrap(schema));
  return s.type === "object" ? s.entries : undefined;
}

export function arrayItem(schema: AnySchema): AnySchema | undefined {
  const s = view(unwrap(schema));
  return s.type === "array" ? s.item : undefined;
}

export function recordValue(schema: AnySchema): AnySchema | undefined {
  const s = view(unwrap(schema));
  return s.type === "record" ? s.value : undefined;
}

/** The metadata of a setting's pipe (the markers of schema/primitives.ts), merged; {} when none. */
function metadataOf(schema: AnySchema): Readonly<Record<string, unknown>> {
  const pipe = (
    unwrap(schema) as unknown as { pipe?: readonly { type: string; metadata?: Record<string, unknown> }[] }
  ).pipe;
  const items = (pipe ?? []).filter((item) => item.type === "metadata");
  return Object.assign({}, ...items.map((item) => item.metadata));
}

/** True for settings built with the required-when-active marker (see schema/primitives.ts). */
export function isRequiredWhenActive(schema: AnySchema): boolean {
  return metadataOf(schema).requiredWhenActive === true;
}

/** For a setting that names a file (the file marker of schema/primitives.ts): its rule; else undefined. */
export function fileRule(schema: AnySchema): { readonly whenEmpty?: string } | undefined {
  const metadata = metadataOf(schema);
  if (metadata.namesFile !== true) return undefined;
  return typeof metadata.whenEmpty === "string" ? { whenEmpty: metadata.whenEmpty } : {};
}

/** True for a listener's `tls` block (the marker of schema/listener-tls.ts). */
export function isListenerTls(schema: AnySchema): boolean {
  return metadataOf(schema)[LISTENER_TLS_MARKER] === true;
}

/** The default of an optional schema (a value, not a function, everywhere in this config). */
export function schemaDefault(schema: AnySchema): unknown {
  const s = view(schema);
  return WRAPPERS.has(s.type) ? s.default : undefined;
}

/** The schema at a path of object keys (array levels are crossed with `[]`). */
export function schemaAt(root: AnySchema, path: readonly string[]): AnySchema | undefined {
  let s: AnySchema | undefined = root;
  for (const key of path) {
    if (s === undefined) return undefined;
    s = key === "[]" ? arrayItem(s) : objectEntries(s)?.[key];
  }
  return s;
}

export interface Leaf {
  /** Object keys from the root; `[]` marks an array level. */
  readonly path: readonly string[];
  readonly schema: AnySchema;
}

/** Every leaf (non-object) setting of the schema, descending into arrays and records of objects. */
export function listLeaves(root: AnySchema, prefix: readonly string[] = []): Leaf[] {
  const entries = objectEntries(root);
  if (entries === undefined) {
    const item = arrayItem(root) ?? recordValue(root);
    if (item !== undefined && objectEntries(item) !== undefined) return listLeaves(item, [...prefix, "[]"]);
    return [{ path: prefix, schema: root }];
  }
  return Object.entries(entries).flatMap(([key, child]) => listLeaves(child, [...prefix, key]));
}
