/**
 * Per-type payload schemas, as Butler SOS checks them (the existing browser client's events fit
 * them). Every object is open (unknown members allowed and kept) and no value is coerced. Five
 * types have a schema; the other accepted types only need `payload` to be an object, which the
 * envelope schema checks. A violation is a 422 listing every issue.
 */

import * as v from "valibot";
import type { ConstraintViolation } from "./envelope-constraints.ts";
import { toSchemaViolation } from "./envelope-schema.ts";
import { looseObjectOf } from "./json-object.ts";
import { isRfc3339DateTime } from "./rfc3339.ts";
import { UUID_PATTERN } from "./uuid.ts";

const CROP_MAX = 32767;

function text(max: number, min = 0) {
  return v.pipe(
    v.string("must be a string"),
    v.minLength(min, `must have at least ${min} characters`),
    v.maxLength(max, `must have at most ${max} characters`),
  );
}

function nullableText(max: number) {
  return v.exactOptional(v.nullable(text(max)));
}

const selectionTxnId = v.pipe(
  text(36, 1),
  v.regex(UUID_PATTERN, "must be a UUID"),
  v.metadata({ format: "uuid" }),
);

const dateTime = v.pipe(
  v.string("must be a string"),
  v.check(isRfc3339DateTime, "must be an RFC 3339 date-time with a time zone"),
  v.metadata({ format: "date-time" }),
);

const nullableInteger = v.exactOptional(
  v.nullable(v.pipe(v.number("must be a number or null"), v.integer("must be an integer"))),
);

const nullableBoolean = v.exactOptional(v.nullable(v.boolean("must be a boolean or null")));

/** An absolute URI: a scheme, then something the WHATWG URL parser accepts. */
function isAbsoluteUri(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\S*$/i.test(value) && URL.canParse(value);
}

const context = v.exactOptional(
  looseObjectOf({
    appId: v.exactOptional(v.string("must be a string")),
    appName: v.exactOptional(text(64)),
    sheetId: v.exactOptional(text(64)),
    sheetName: v.exactOptional(text(64)),
    user: v.exactOptional(text(256)),
    userAgent: v.exactOptional(text(512)),
  }),
);

function cropSide(exclusiveZero: boolean) {
  const number = v.number("must be a number");
  const max = `must be at most ${CROP_MAX}`;
  return exclusiveZero
    ? v.pipe(number, v.gtValue(0, "must be greater than 0"), v.maxValue(CROP_MAX, max))
    : v.pipe(number, v.minValue(0, "must be greater than or equal to 0"), v.maxValue(CROP_MAX, max));
}

const crop = looseObjectOf({
  width: cropSide(true),
  height: cropSide(true),
  top: v.exactOptional(cropSide(false)),
  left: v.exactOptional(cropSide(false)),
  scrollTop: v.exactOptional(cropSide(false)),
  scrollAreaOffsetY: v.exactOptional(cropSide(false)),
  renderingOverflow: v.exactOptional(cropSide(false)),
});

function payloadWith(event: v.ObjectEntries) {
  return looseObjectOf({ context, event: looseObjectOf(event) });
}

export const payloadSchemas = {
  "selection.state.changed": payloadWith({
    selectionTxnId,
    details: v.pipe(
      v.array(v.unknown(), "must be an array"),
      v.maxLength(500, "must have at most 500 items"),
    ),
  }),
  "app.model.validated": payloadWith({
    selectionTxnId,
    dataStateId: nullableInteger,
    captureScheduled: nullableBoolean,
  }),
  "screenshot.url.received": payloadWith({
    screenshotUrl: v.pipe(
      text(2048, 1),
      v.check(isAbsoluteUri, "must be an absolute URI"),
      v.metadata({ format: "uri" }),
    ),
    selectionTxnId,
    objectId: nullableText(64),
    crop: v.exactOptional(crop),
  }),
  "event.unsupported.visualization": payloadWith({
    vizType: text(64, 1),
    selectionTxnId,
    objectId: nullableText(64),
    title: nullableText(64),
    trigger: nullableText(64),
    dataStateId: v.exactOptional(
      v.nullable(v.union([v.number(), v.string()], "must be a number, a string or null")),
    ),
  }),
  "object.view.duration": payloadWith({
    objectId: text(64, 1),
    duration: v.pipe(v.number("must be a number"), v.minValue(0, "must be greater than or equal to 0")),
    leftAt: dateTime,
    enteredAt: v.exactOptional(v.nullable(dateTime)),
    visible: nullableBoolean,
    selectionTxnId: nullableText(36),
    enterSelectionTxnId: nullableText(36),
    leaveSelectionTxnId: nullableText(36),
    dataStateId: nullableInteger,
  }),
} as const;

export type TypeWithPayloadSchema = keyof typeof payloadSchemas;

function hasPayloadSchema(type: string): type is TypeWithPayloadSchema {
  return Object.hasOwn(payloadSchemas, type);
}

/** Every violation of the payload schema of `type`; empty when valid or when the type has none. */
export function checkPayload(type: string, payload: Record<string, unknown>): ConstraintViolation[] {
  if (!hasPayloadSchema(type)) return [];
  const result = v.safeParse(payloadSchemas[type], payload);
  if (result.success) return [];
  return result.issues.map((issue) => {
    const { instancePath, message } = toSchemaViolation(issue, "/payload");
    return { instancePath, message: `${instancePath} ${message}` };
  });
}
