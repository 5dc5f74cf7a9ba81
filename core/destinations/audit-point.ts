/**
 * The `audit_event` point of the timeseriesdb destination: the same tags and fields for every
 * event type, time from the envelope.
 *
 * Identifiers that grow with every event (`eventId`, `correlationId`, `selectionTxnId`) are
 * string fields, not tags: as tags each event opened a series of its own, InfluxDB's memory grew
 * with them, and InfluxDB 1.x with its default `max-values-per-tag` (100,000) refused every audit
 * point after the 100,000th event. The other tags stay tags. So that distinct events never share
 * a point, its time carries a sub-millisecond offset derived from the eventId
 * (event-time-offset.ts).
 */
import type { AuditFacts, StaticTag } from "../audit/index.ts";
import {
  booleanField,
  type FieldValue,
  floatField,
  integerField,
  type Point,
  stringField,
} from "../shared/line-protocol.ts";
import { eventTimeOffsetNs } from "./event-time-offset.ts";

export interface AuditPointOptions {
  measurementName: string;
  staticTags: readonly StaticTag[];
}

const STRING_FIELDS = [
  "eventId",
  "correlationId",
  "selectionTxnId",
  "sheetId",
  "sheetName",
  "objectId",
  "enteredAt",
  "leftAt",
  "enterSelectionTxnId",
  "leaveSelectionTxnId",
  "screenshotUrl",
] as const;

const OPTIONAL_TAGS = ["user", "userDirectory", "userId", "appId", "appName", "objectType"] as const;

export function toAuditPoint(facts: AuditFacts, options: AuditPointOptions): Point {
  const tags: Record<string, string> = {
    eventType: facts.eventType,
    auditEventSchemaVersion: String(facts.schemaVersion),
  };
  for (const name of OPTIONAL_TAGS) {
    const value = facts[name];
    if (value !== null) tags[name] = value;
  }
  // A static tag overwrites a dynamic tag of the same name, as in Butler SOS.
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
  // InfluxDB refuses a point without fields; an event with nothing to store (no eventId, no
  // details) still counts, so it carries this marker instead of being rejected forever.
  if (Object.keys(fields).length === 0) fields.eventCount = integerField(1);

  const point: Point = { measurement: options.measurementName || "audit_event", tags, fields };
  if (facts.timestampMs === null) return point;
  return facts.eventId === null
    ? { ...point, timestampMs: facts.timestampMs }
    : { ...point, timestampMs: facts.timestampMs, subMsNs: eventTimeOffsetNs(facts.eventId) };
}
