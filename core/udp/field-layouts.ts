/**
 * The field layouts of the platform's UDP datagrams (as the platform's log appenders send them),
 * one table per source: field name, maximum length after sanitising and validator kind.
 * `applyLayout` (apply-layout.ts) is the one function that reads any of them, so a new source or a
 * changed position is a table edit. Field 0, the marker, is the layout's own `marker`; `fields`
 * lists fields 1…n-1 in wire order. The parsed record's types follow from the tables
 * (`LayoutRecord`).
 */

/** What a field's text is turned into; see apply-layout.ts for each rule. */
interface KindValues {
  /** Sanitised text. */
  text: string;
  /** A UUID in lower case, or `''` when the text is not one. */
  uuid: string;
  /** A timestamp in a form `ts_iso` accepts, or `''`. */
  isoTime: string;
  /** A timestamp in a form `ts_local` accepts, or `''`. */
  localTime: string;
  /** A decimal integer ≥ `min`, or `fallback`. */
  int: number;
  /** A finite decimal number, or undefined: NaN and infinities never leave the parser. */
  float: number | undefined;
}

export type FieldKind = keyof KindValues;

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  /** Maximum length in UTF-16 code units, applied after control characters are removed. */
  readonly max: number;
  /** `int` only: the smallest accepted value. */
  readonly min?: number;
  /** `int` only: the value of a missing or invalid number. */
  readonly fallback?: number;
}

export interface Layout<S extends string = string, F extends readonly FieldSpec[] = readonly FieldSpec[]> {
  /** Field 0 in lower case, e.g. `/qseow-engine/`; compared case-insensitively. */
  readonly marker: string;
  /** The marker without its slashes: the parsed record's `source`, e.g. `qseow-engine`. */
  readonly source: S;
  readonly fields: F;
  /**
   * Index in `fields` of the free-text message that absorbs surplus `;` (a message may contain
   * `;`): surplus fields are re-joined into it with `;`. Without one, a datagram with surplus
   * fields is malformed.
   */
  readonly messageIndex: number | undefined;
}

/** The parsed record of a layout: `source` plus one typed member per field. */
export type LayoutRecord<L extends Layout> = { source: L["source"] } & {
  -readonly [F in L["fields"][number] as F["name"]]: KindValues[F["kind"]];
};

const text = <N extends string>(name: N, max: number) => ({ name, kind: "text", max }) as const;
const uuid = <N extends string>(name: N) => ({ name, kind: "uuid", max: 36 }) as const;
const int = <N extends string>(name: N, min: number, fallback: number) =>
  ({ name, kind: "int", max: 20, min, fallback }) as const;
const float = <N extends string>(name: N) => ({ name, kind: "float", max: 50 }) as const;

function defineLayout<const S extends string, const F extends readonly FieldSpec[]>(
  source: S,
  fields: F,
  messageField?: F[number]["name"],
): Layout<S, F> {
  const messageIndex =
    messageField === undefined ? undefined : fields.findIndex((f) => f.name === messageField);
  return { marker: `/${source}/`, source, fields, messageIndex };
}

/** Fields 1–7, shared by every log-event layout. */
const LOG_PREFIX = [
  int("log_row", 0, -1),
  { name: "ts_iso", kind: "isoTime", max: 50 },
  { name: "ts_local", kind: "localTime", max: 50 },
  text("level", 20),
  text("host", 100),
  text("subsystem", 200),
  text("windows_user", 100),
] as const;

const USER_FIELDS = [
  text("host", 100),
  text("command", 100),
  text("user_directory", 100),
  text("user_id", 100),
  text("origin", 200),
  text("context", 500),
  text("message", 1000),
] as const;

/** User activity events (8 fields): everything after the 7th `;` is the message. */
export const USER_SESSION_LAYOUT = defineLayout("qseow-proxy-session", USER_FIELDS, "message");
export const USER_CONNECTION_LAYOUT = defineLayout("qseow-proxy-connection", USER_FIELDS, "message");

/** Engine log events (19 fields). */
export const ENGINE_LAYOUT = defineLayout(
  "qseow-engine",
  [
    ...LOG_PREFIX,
    text("message", 1000),
    uuid("proxy_session_id"),
    text("user_directory", 100),
    text("user_id", 100),
    text("engine_ts", 50),
    uuid("process_id"),
    text("engine_exe_version", 50),
    text("server_started", 50),
    text("entry_type", 50),
    uuid("session_id"),
    uuid("app_id"),
  ] as const,
  "message",
);

/** Fields 8–15 of proxy and repository log events (16 fields). */
const GENERIC_FIELDS = [
  ...LOG_PREFIX,
  text("message", 1000),
  text("exception_message", 1000),
  text("user_directory", 100),
  text("user_id", 100),
  text("command", 200),
  text("result_code", 50),
  text("origin", 200),
  text("context", 200),
] as const;

export const PROXY_LAYOUT = defineLayout("qseow-proxy", GENERIC_FIELDS, "message");
export const REPOSITORY_LAYOUT = defineLayout("qseow-repository", GENERIC_FIELDS, "message");

/** Scheduler log events (18 fields). */
export const SCHEDULER_LAYOUT = defineLayout(
  "qseow-scheduler",
  [
    ...LOG_PREFIX,
    text("message", 1000),
    text("exception_message", 1000),
    text("user_directory", 100),
    text("user_id", 100),
    text("user_full", 200),
    text("task_name", 200),
    text("app_name", 200),
    uuid("task_id"),
    uuid("app_id"),
    uuid("execution_id"),
  ] as const,
  "message",
);

/**
 * Engine API performance events (26 fields). There is no free-text field to absorb a stray `;`,
 * so a datagram with surplus fields is malformed. `proxy_session_id` is text: `0` marks activity
 * that no user caused.
 */
export const QIX_PERF_LAYOUT = defineLayout("qseow-qix-perf", [
  ...LOG_PREFIX,
  text("proxy_session_id", 100),
  text("user_directory", 100),
  text("user_id", 100),
  text("engine_ts", 50),
  uuid("session_id"),
  uuid("app_id"),
  int("request_id", 0, -99),
  text("method", 100),
  float("process_time"),
  float("work_time"),
  float("lock_time"),
  float("validate_time"),
  float("traverse_time"),
  int("handle", Number.MIN_SAFE_INTEGER, -99),
  text("object_id", 100),
  int("net_ram", 0, -1),
  int("peak_ram", 0, -1),
  text("object_type", 100),
] as const);

export type UserLayout = typeof USER_SESSION_LAYOUT | typeof USER_CONNECTION_LAYOUT;

/** Position of a named field in the datagram (the marker is 0). */
export function wireIndexOf(layout: Layout, name: string): number {
  const index = layout.fields.findIndex((field) => field.name === name);
  if (index < 0) throw new RangeError(`layout ${layout.source} has no field ${name}`);
  return index + 1;
}
