/**
 * Everything the destinations store about one accepted event, derived once from the envelope.
 * Parquet/QVD rows, InfluxDB points and objectData files are all views of these facts, so the
 * destinations cannot drift apart.
 */
import type { AcceptedEvent } from "./accepted-event.ts";
import { parseUserIdentity } from "./user-identity.ts";

export interface SelectionDetail {
  qField: unknown;
  qSelectedCount: unknown;
  qSelected: unknown;
}

export interface AuditFacts {
  schemaVersion: number;
  eventId: string | null;
  correlationId: string | null;
  /** The envelope timestamp exactly as the client sent it. */
  timestampRaw: string;
  /** Epoch milliseconds of the envelope timestamp, null when it cannot be parsed. */
  timestampMs: number | null;
  eventType: string;
  user: string | null;
  userDirectory: string | null;
  userId: string | null;
  appId: string | null;
  appName: string | null;
  sheetId: string | null;
  sheetName: string | null;
  objectId: string | null;
  objectType: string | null;
  selectionTxnId: string | null;
  enterSelectionTxnId: string | null;
  leaveSelectionTxnId: string | null;
  /** payload.event.duration in ms; fractions kept. */
  durationMs: number | null;
  visible: boolean | null;
  enteredAt: string | null;
  leftAt: string | null;
  /** payload.event.dataStateId as a number (integer numbers and digit strings). */
  dataStateId: number | null;
  selectionDetails: SelectionDetail[] | null;
  screenshotUrl: string | null;
  /** payload.event.objectData as received, when it is an object. */
  objectData: Record<string, unknown> | null;
  receivedAt: string;
  clientIp: string;
}

export function extractAuditFacts(accepted: AcceptedEvent): AuditFacts {
  const { envelope } = accepted;
  const payload = envelope.payload;
  const context = asRecord(payload.context);
  const event = asRecord(payload.event);
  const objectData = asRecord(event.objectData);
  const hasObjectData = isRecord(event.objectData);
  return {
    schemaVersion: envelope.schemaVersion,
    eventId: nonEmptyString(envelope.eventId),
    correlationId: nonEmptyString(envelope.correlationId),
    timestampRaw: envelope.timestamp,
    timestampMs: parseTimestamp(envelope.timestamp),
    eventType: nonEmptyString(envelope.type) ?? "unknown",
    ...parseUserIdentity(context.user),
    appId: nonEmptyString(context.appId),
    appName: nonEmptyString(context.appName),
    sheetId: nonEmptyString(context.sheetId),
    sheetName: nonEmptyString(context.sheetName),
    objectId: nonEmptyString(event.objectId),
    objectType: nonEmptyString(objectData.objectType),
    selectionTxnId: nonEmptyString(event.selectionTxnId),
    enterSelectionTxnId: nonEmptyString(event.enterSelectionTxnId),
    leaveSelectionTxnId: nonEmptyString(event.leaveSelectionTxnId),
    durationMs: finiteNumber(event.duration),
    visible: typeof event.visible === "boolean" ? event.visible : null,
    enteredAt: nonEmptyString(event.enteredAt),
    leftAt: nonEmptyString(event.leftAt),
    dataStateId: parseDataStateId(event.dataStateId),
    selectionDetails: envelope.type === "selection.state.changed" ? reduceSelection(event.details) : null,
    screenshotUrl: nonEmptyString(event.screenshotUrl),
    objectData: hasObjectData ? objectData : null,
    receivedAt: accepted.receivedAt,
    clientIp: accepted.clientIp,
  };
}

/**
 * RFC 3339 allows a lower-case `t`/`z` and a space for `T`; Date.parse wants the upper-case
 * ISO form, so normalise before parsing. The offset is honoured: the result is UTC epoch ms.
 */
export function parseTimestamp(value: string): number | null {
  const normalised = value.trim().toUpperCase().replace(" ", "T");
  const ms = Date.parse(normalised);
  return Number.isFinite(ms) ? ms : null;
}

function parseDataStateId(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^-?\d+$/.test(value)) {
    const parsed = Number(value);
    return Number.isSafeInteger(parsed) ? parsed : null;
  }
  return null;
}

function reduceSelection(details: unknown): SelectionDetail[] | null {
  if (!Array.isArray(details) || details.length === 0) return null;
  return details.map((item) => {
    const detail = asRecord(item);
    return { qField: detail.qField, qSelectedCount: detail.qSelectedCount, qSelected: detail.qSelected };
  });
}

/** Whether the event carries `payload.event.objectData` as an object (what `objectData` needs), cheaply. */
export function carriesObjectData(event: AcceptedEvent): boolean {
  const payload: unknown = event.envelope.payload;
  return isRecord(payload) && isRecord(payload.event) && isRecord(payload.event.objectData);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

function finiteNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
