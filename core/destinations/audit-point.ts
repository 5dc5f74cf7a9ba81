/**
 * The `audit_event` point of the timeseriesdb destination (reference audit-ingest §4.2): the same
 * tags and fields for every event type, timestamp from the envelope.
 */
import type { AuditFacts } from "../audit/audit-facts.ts";
import type { StaticTag } from "../audit/static-tags.ts";
import {
  booleanField,
  type FieldValue,
  floatField,
  integerField,
  type Point,
  stringField,
} from "./line-protocol.ts";

export interface AuditPointOptions {
  measurementName: string;
  staticTags: readonly StaticTag[];
}

const STRING_FIELDS = [
  "sheetId",
  "sheetName",
  "objectId",
  "enteredAt",
  "leftAt",
  "enterSelectionTxnId",
  "leaveSelectionTxnId",
  "screenshotUrl",
] as const;

const OPTIONAL_TAGS = [
  "eventId",
  "correlationId",
  "selectionTxnId",
  "user",
  "userDirectory",
  "userId",
  "appId",
  "appName",
  "objectType",
] as const;

export function toAuditPoint(facts: AuditFacts, options: AuditPointOptions): Point {
  const tags: Record<string, string> = {
    eventType: facts.eventType,
    auditEventSchemaVersion: String(facts.schemaVersion),
  };
  for (const name of OPTIONAL_TAGS) {
    const value = facts[name];
    if (value !== null) tags[name] = value;
  }
  // A static tag overwrites a dynamic tag of the same name, as in the replaced system.
  for (const tag of options.staticTags) {
    if (tag.name !== "" && tag.value !== "") tags[tag.name] = tag.value;
  }

  const fields: Record<string, FieldValue> = {};
  for (const name of STRING_FIELDS) {
    const value = facts[name];
    if (value !== null) fields[name] = stringField(value);
  }
  if (facts.durationMs !== null) fields.durationMs = floatField(facts.durationMs);
  if (facts.dataStateId !== null) fields.dataStateId = floatField(facts.dataStateId);
  if (facts.visible !== null) fields.visible = booleanField(facts.visible);
  if (facts.selectionDetails !== null)
    fields.selectionDetails = stringField(JSON.stringify(facts.selectionDetails));
  if (facts.objectData !== null) fields.objectData = stringField(JSON.stringify(facts.objectData));
  // InfluxDB refuses a point without fields; a bare event (navigation.sheet.loaded without sheet
  // details) still counts, so it carries this marker instead of being rejected forever.
  if (Object.keys(fields).length === 0) fields.eventCount = integerField(1);

  const point: Point = { measurement: options.measurementName || "audit_event", tags, fields };
  return facts.timestampMs === null ? point : { ...point, timestampMs: facts.timestampMs };
}
