/**
 * Object schemas that accept only JSON objects. valibot's object schemas accept arrays (an array
 * is an object in JavaScript), so each is preceded by a check that rejects arrays and null.
 */

import * as v from "valibot";

const MUST_BE_OBJECT = "must be an object";

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const jsonObjectCheck = v.custom<Record<string, unknown>>(isJsonObject, MUST_BE_OBJECT);

/** An object with `entries`; other members are dropped from the output. */
export function objectOf<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.pipe(jsonObjectCheck, v.object(entries, MUST_BE_OBJECT));
}

/** An object with `entries`; other members are kept unchecked. */
export function looseObjectOf<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.pipe(jsonObjectCheck, v.looseObject(entries, MUST_BE_OBJECT));
}
