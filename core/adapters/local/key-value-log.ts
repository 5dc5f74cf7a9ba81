/**
 * The record format and in-memory model of the file-backed key-value store: a snapshot file
 * plus a write-ahead log of JSON lines. Every record is idempotent (absolute expiry times,
 * whole-key or whole-namespace replacement), so replaying a log over a snapshot that already
 * contains it yields the same state — which makes a crash between compaction's rename and the
 * log truncation harmless.
 */

export interface StoredEntry {
  value: string;
  /** Epoch ms at which the key stops existing; null = never. */
  expiresAt: number | null;
}

export type Namespaces = Map<string, Map<string, StoredEntry>>;

export type LogRecord =
  | { op: "set"; ns: string; key: string; value: string; exp: number | null }
  | { op: "del"; ns: string; key: string }
  | { op: "drop"; ns: string };

/** Snapshot file content; arrays, not objects, so that no key can collide with `__proto__`. */
interface Snapshot {
  version: 1;
  namespaces: [string, [string, string, number | null][]][];
}

export function applyRecord(namespaces: Namespaces, record: LogRecord): void {
  switch (record.op) {
    case "set": {
      let keys = namespaces.get(record.ns);
      if (keys === undefined) {
        keys = new Map();
        namespaces.set(record.ns, keys);
      }
      keys.set(record.key, { value: record.value, expiresAt: record.exp });
      return;
    }
    case "del":
      namespaces.get(record.ns)?.delete(record.key);
      return;
    case "drop":
      namespaces.delete(record.ns);
      return;
  }
}

function isLogRecord(value: unknown): value is LogRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.ns !== "string") return false;
  switch (record.op) {
    case "set":
      return (
        typeof record.key === "string" &&
        typeof record.value === "string" &&
        (record.exp === null || typeof record.exp === "number")
      );
    case "del":
      return typeof record.key === "string";
    case "drop":
      return true;
    default:
      return false;
  }
}

/**
 * Parses log text. Only the final line may be incomplete (a write torn by a crash before it
 * was acknowledged); `validLength` tells the caller where to truncate. A bad line anywhere
 * else means corruption and throws.
 */
export function parseLog(text: string): { records: LogRecord[]; validLength: number } {
  const records: LogRecord[] = [];
  let offset = 0;
  while (offset < text.length) {
    const end = text.indexOf("\n", offset);
    if (end < 0) break; // torn tail: never acknowledged
    const line = text.slice(offset, end);
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (cause) {
      throw new Error(`Corrupt log record at byte ${offset}`, { cause });
    }
    if (!isLogRecord(parsed)) throw new Error(`Unknown log record at byte ${offset}`);
    records.push(parsed);
    offset = end + 1;
  }
  return { records, validLength: Buffer.byteLength(text.slice(0, offset)) };
}

export function serializeRecord(record: LogRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** Snapshot text of the live entries (expired ones are purged here). */
export function serializeSnapshot(namespaces: Namespaces, now: number): string {
  const snapshot: Snapshot = { version: 1, namespaces: [] };
  for (const [ns, keys] of namespaces) {
    const entries: [string, string, number | null][] = [];
    for (const [key, entry] of keys) {
      if (entry.expiresAt === null || entry.expiresAt > now)
        entries.push([key, entry.value, entry.expiresAt]);
    }
    snapshot.namespaces.push([ns, entries]);
  }
  return JSON.stringify(snapshot);
}

export function parseSnapshot(text: string): Namespaces {
  const snapshot = JSON.parse(text) as Snapshot;
  if (snapshot.version !== 1 || !Array.isArray(snapshot.namespaces)) {
    throw new Error("Unsupported key-value snapshot format");
  }
  const namespaces: Namespaces = new Map();
  for (const [ns, entries] of snapshot.namespaces) {
    const keys = new Map<string, StoredEntry>();
    for (const [key, value, expiresAt] of entries) keys.set(key, { value, expiresAt });
    namespaces.set(ns, keys);
  }
  return namespaces;
}
