/**
 * Log events as points of measurement `log_event` (as Butler SOS 15 writes it): common tags `host`,
 * `level`, `source`, `log_row`, `subsystem`; per source the tags written when non-empty and the
 * fields Butler SOS writes, named per database version as field-names.ts says (1.x `result_code`,
 * 2.x and 3.x `result_code_field`…) and typed as Butler SOS typed them on each version
 * (NUMBER_TYPES below); engine API performance events always carry `method`, `object_type`,
 * `proxy_session_id`, `session_id` and `event_activity_source` (defaults `<Unknown>` and `-1` when
 * empty); every point has `raw_event`, the event as JSON. Tag precedence, lowest first:
 * `logEvents.tags`, categories, the event's own tags — configuration never hides event data. The
 * point's time is the event's own (`ts_iso`) when it parsed, else the receive time (Butler SOS
 * stamped it with the write time instead).
 */

import type { TimeseriesdbVersion } from "../config/index.ts";
import type { NameValue } from "../ports.ts";
import {
  type FieldValue,
  floatField,
  integerField,
  type Point,
  stringField,
} from "../shared/line-protocol.ts";
import { fieldNamer } from "./field-names.ts";
import type { LogEvent, LogSource } from "./log-event.ts";

export const LOG_EVENT_MEASUREMENT = "log_event";

interface SourceSpec {
  /** Tags written only when the event's value is non-empty. */
  readonly tagsIfSet: readonly string[];
  /** Tags always written, with the value used when the event's is empty. */
  readonly tagsAlways: readonly (readonly [name: string, fallback: string])[];
  /** String fields; a member the source lacks is written as `''`, as Butler SOS does. */
  readonly strings: readonly string[];
  /** Numeric fields and their kind; a number that did not parse is left out (never NaN). */
  readonly numbers: readonly (readonly [member: string, kind: NumberKind])[];
}

/** What a number of a performance event is: a duration, an amount, or the object's handle. */
type NumberKind = "time" | "amount" | "handle";

/**
 * How each kind is typed per database version, as Butler SOS wrote it: durations are floats and
 * amounts integers everywhere; the handle is an integer, except on 2.x, where it wrote the handle
 * as a string (a database it filled holds a string field `handle`).
 */
const NUMBER_TYPES: Readonly<
  Record<TimeseriesdbVersion, Readonly<Record<NumberKind, (value: number) => FieldValue>>>
> = {
  1: { time: floatField, amount: integerField, handle: integerField },
  2: { time: floatField, amount: integerField, handle: (value) => stringField(String(value)) },
  3: { time: floatField, amount: integerField, handle: integerField },
};

const USER_TAGS = ["user_full", "user_directory", "user_id"] as const;
const GENERIC_STRINGS = [
  "message",
  "exception_message",
  "command",
  "result_code",
  "origin",
  "context",
] as const;

const SPECS: Readonly<Record<LogSource, SourceSpec>> = {
  "qseow-engine": {
    tagsIfSet: [
      ...USER_TAGS,
      "result_code",
      "windows_user",
      "task_id",
      "task_name",
      "app_id",
      "app_name",
      "engine_exe_version",
    ],
    tagsAlways: [],
    strings: [...GENERIC_STRINGS, "session_id"],
    numbers: [],
  },
  "qseow-proxy": {
    tagsIfSet: [...USER_TAGS, "result_code"],
    tagsAlways: [],
    strings: GENERIC_STRINGS,
    numbers: [],
  },
  "qseow-repository": {
    tagsIfSet: [...USER_TAGS, "result_code"],
    tagsAlways: [],
    strings: GENERIC_STRINGS,
    numbers: [],
  },
  "qseow-scheduler": {
    tagsIfSet: [...USER_TAGS, "task_id", "task_name"],
    tagsAlways: [],
    strings: ["message", "exception_message", "app_name", "app_id", "execution_id"],
    numbers: [],
  },
  "qseow-qix-perf": {
    tagsIfSet: [...USER_TAGS, "app_id", "app_name", "object_id"],
    tagsAlways: [
      ["method", "<Unknown>"],
      ["object_type", "<Unknown>"],
      ["proxy_session_id", "-1"],
      ["session_id", "-1"],
      ["event_activity_source", "user"],
    ],
    strings: ["app_id"],
    numbers: [
      ["process_time", "time"],
      ["work_time", "time"],
      ["lock_time", "time"],
      ["validate_time", "time"],
      ["traverse_time", "time"],
      ["handle", "handle"],
      ["net_ram", "amount"],
      ["peak_ram", "amount"],
    ],
  },
};

const COMMON_TAGS = ["host", "level", "source", "log_row", "subsystem"] as const;

interface CompiledSpec extends SourceSpec {
  /** [member, field name] pairs, resolved once. */
  readonly stringNames: readonly (readonly [string, string])[];
  /** [member, field name, field type] triples, resolved once. */
  readonly numberFields: readonly (readonly [string, string, (value: number) => FieldValue])[];
}

export interface LogEventPointOptions {
  /** `logEvents.tags`. */
  readonly tags: readonly NameValue[];
  /** Every category name the rules can give (categorise.ts `categoryNames`). */
  readonly categoryNames: readonly string[];
  /** `timeseriesdbConfig.version`: decides field names and types. */
  readonly version: TimeseriesdbVersion;
}

/** Maps a log event (with its JSON, shared with the broker payload) to its point. */
export type LogEventPointMapper = (event: LogEvent, rawEvent: string, timestampMs: number) => Point;

export function createLogEventPointMapper(options: LogEventPointOptions): LogEventPointMapper {
  const tagNames = new Set<string>([
    ...COMMON_TAGS,
    ...options.categoryNames,
    ...options.tags.map((t) => t.name),
  ]);
  for (const spec of Object.values(SPECS)) {
    for (const name of spec.tagsIfSet) tagNames.add(name);
    for (const [name] of spec.tagsAlways) tagNames.add(name);
  }
  const nameOf = fieldNamer(LOG_EVENT_MEASUREMENT, options.version, tagNames);
  const numberTypes = NUMBER_TYPES[options.version];
  const compiled = new Map<LogSource, CompiledSpec>(
    Object.entries(SPECS).map(([source, spec]) => [
      source as LogSource,
      {
        ...spec,
        stringNames: spec.strings.map((member) => [member, nameOf(member)] as const),
        numberFields: spec.numbers.map(
          ([member, kind]) => [member, nameOf(member), numberTypes[kind]] as const,
        ),
      },
    ]),
  );
  const rawEventName = nameOf("raw_event");
  const staticTags = options.tags;

  return function toLogEventPoint(event, rawEvent, timestampMs) {
    const spec = compiled.get(event.source) as CompiledSpec;
    // The layouts type each source; the table above reads members by name.
    const values = event as unknown as Readonly<Record<string, string | number | undefined>>;
    const tags: Record<string, string> = {};
    for (const tag of staticTags) tags[tag.name] = tag.value;
    for (const category of event.category) tags[category.name] = category.value;
    tags.host = event.host;
    tags.level = event.level;
    tags.source = event.source;
    tags.log_row = String(event.log_row);
    tags.subsystem = event.subsystem;
    for (const name of spec.tagsIfSet) {
      const value = values[name];
      if (typeof value === "string" && value !== "") tags[name] = value;
    }
    for (const [name, fallback] of spec.tagsAlways) {
      const value = values[name];
      tags[name] = typeof value === "string" && value !== "" ? value : fallback;
    }

    const fields: Record<string, FieldValue> = {};
    for (const [member, name] of spec.stringNames) {
      const value = values[member];
      fields[name] = stringField(typeof value === "string" ? value : "");
    }
    for (const [member, name, type] of spec.numberFields) {
      const value = values[member];
      if (typeof value === "number") fields[name] = type(value);
    }
    fields[rawEventName] = stringField(rawEvent);
    return { measurement: LOG_EVENT_MEASUREMENT, tags, fields, timestampMs };
  };
}
