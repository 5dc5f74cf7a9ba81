/**
 * The table row written by the Parquet and table-file (QVD) destinations: the 25 columns of the
 * audit row, in Butler SOS's order. Empty strings are null, as in Butler SOS.
 */
import type { AuditFacts } from "./audit-facts.ts";

export interface AuditRow {
  /** Epoch ms of the envelope timestamp. */
  timestamp: number | null;
  /** `YYYYMMDD` of the event timestamp in UTC. */
  date: string | null;
  eventId: string | null;
  correlationId: string | null;
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
  /** Integers only: a fractional duration is null here (the JSON file keeps fractions). */
  durationMs: number | null;
  visible: boolean | null;
  enteredAt: string | null;
  leftAt: string | null;
  dataStateId: number | null;
  /** JSON of the reduced selection array. */
  selectionDetails: string | null;
  screenshotUrl: string | null;
  /**
   * JSON array of downloaded screenshot paths in Butler SOS. Steward does not download
   * screenshots, so it is always null; the column stays so existing queries keep working.
   */
  screenshotSavedPaths: string | null;
  /** JSON of payload.event.objectData. */
  objectData: string | null;
  /** JSON object of the static tags. */
  tags: string | null;
}

export type AuditColumnKind = "timestamp" | "string" | "integer" | "boolean";

export interface AuditColumn {
  name: keyof AuditRow;
  kind: AuditColumnKind;
}

/** Column names and kinds in file order. */
export const AUDIT_COLUMNS: readonly AuditColumn[] = [
  { name: "timestamp", kind: "timestamp" },
  { name: "date", kind: "string" },
  { name: "eventId", kind: "string" },
  { name: "correlationId", kind: "string" },
  { name: "eventType", kind: "string" },
  { name: "user", kind: "string" },
  { name: "userDirectory", kind: "string" },
  { name: "userId", kind: "string" },
  { name: "appId", kind: "string" },
  { name: "appName", kind: "string" },
  { name: "sheetId", kind: "string" },
  { name: "sheetName", kind: "string" },
  { name: "objectId", kind: "string" },
  { name: "objectType", kind: "string" },
  { name: "selectionTxnId", kind: "string" },
  { name: "durationMs", kind: "integer" },
  { name: "visible", kind: "boolean" },
  { name: "enteredAt", kind: "string" },
  { name: "leftAt", kind: "string" },
  { name: "dataStateId", kind: "integer" },
  { name: "selectionDetails", kind: "string" },
  { name: "screenshotUrl", kind: "string" },
  { name: "screenshotSavedPaths", kind: "string" },
  { name: "objectData", kind: "string" },
  { name: "tags", kind: "string" },
];

export function toAuditRow(facts: AuditFacts, tags: Record<string, string> | null): AuditRow {
  return {
    timestamp: facts.timestampMs,
    date: facts.timestampMs === null ? null : compactUtcDate(facts.timestampMs),
    eventId: facts.eventId,
    correlationId: facts.correlationId,
    eventType: facts.eventType,
    user: facts.user,
    userDirectory: facts.userDirectory,
    userId: facts.userId,
    appId: facts.appId,
    appName: facts.appName,
    sheetId: facts.sheetId,
    sheetName: facts.sheetName,
    objectId: facts.objectId,
    objectType: facts.objectType,
    selectionTxnId: facts.selectionTxnId,
    durationMs: integerOrNull(facts.durationMs),
    visible: facts.visible,
    enteredAt: facts.enteredAt,
    leftAt: facts.leftAt,
    dataStateId: integerOrNull(facts.dataStateId),
    selectionDetails: facts.selectionDetails === null ? null : JSON.stringify(facts.selectionDetails),
    screenshotUrl: facts.screenshotUrl,
    screenshotSavedPaths: null,
    objectData: facts.objectData === null ? null : JSON.stringify(facts.objectData),
    tags: tags === null ? null : JSON.stringify(tags),
  };
}

const DAY_MS = 86_400_000;
/** The furthest instant from 1970 that a Date holds, either way. */
const DATE_LIMIT_MS = 8.64e15;

/**
 * The last UTC day formatted, as its first millisecond and both forms: a batch's events nearly
 * all fall on one day, and formatting a Date for each of them cost the table-file destinations
 * about a tenth of their time.
 */
let lastDay = { startMs: Number.NaN, iso: "", compact: "" };

function utcDay(epochMs: number): typeof lastDay {
  const startMs = Math.floor(epochMs / DAY_MS) * DAY_MS;
  if (startMs !== lastDay.startMs || Math.abs(epochMs) > DATE_LIMIT_MS) {
    // Throws a RangeError for an instant a Date cannot hold, as before (NaN never equals itself).
    const iso = new Date(epochMs).toISOString().slice(0, 10);
    lastDay = { startMs, iso, compact: iso.replaceAll("-", "") };
  }
  return lastDay;
}

/** `YYYY-MM-DD` of an epoch-ms instant in UTC: the `date=` partition of the event files. */
export function isoUtcDate(epochMs: number): string {
  return utcDay(epochMs).iso;
}

function compactUtcDate(epochMs: number): string {
  return utcDay(epochMs).compact;
}

function integerOrNull(value: number | null): number | null {
  return value !== null && Number.isSafeInteger(value) ? value : null;
}
