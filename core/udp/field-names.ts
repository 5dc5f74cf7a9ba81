/**
 * Field names of the UDP event measurements per database version, where a field has the name of
 * a tag of the same measurement (`userFull` is both a tag and a field of `user_events`,
 * `result_code` of `log_event`). Dashboards query the names Butler SOS wrote on each version, so
 * each version keeps its own:
 * - 1.x: the plain names everywhere; InfluxDB 1.x keeps a tag and a field of one name apart.
 * - 2.x: `<name>_field` only for the fields Butler SOS renamed there (`user_events`: `appId`,
 *   `appName`; `log_event`: `result_code`); InfluxDB 2.x, like 1.x, allows the pair.
 * - 3.x: `<name>_field` for every field that has a tag's name, because InfluxDB 3.x refuses a tag
 *   and a field of one name in a table. The check is measurement-wide: one source's field must
 *   not share a name with another source's tag (the engine's `session_id` field and the
 *   performance events' `session_id` tag), nor with a configured tag or category.
 */
import type { TimeseriesdbVersion } from "../config/index.ts";

export const FIELD_SUFFIX = "_field";

/** The name a field is written under. */
export type FieldNamer = (field: string) => string;

/** Makes a measurement's FieldNamer from every tag name the measurement can have. */
type NamingRule = (tagNames: ReadonlySet<string>) => FieldNamer;

const plainNames: NamingRule = () => (field) => field;

const suffixed =
  (fields: readonly string[]): NamingRule =>
  () =>
  (field) =>
    fields.includes(field) ? `${field}${FIELD_SUFFIX}` : field;

const suffixedWhereTag: NamingRule = (tags) => (field) =>
  tags.has(field) ? `${field}${FIELD_SUFFIX}` : field;

export type EventMeasurement = "user_events" | "log_event";

const NAMING: Readonly<Record<EventMeasurement, Readonly<Record<TimeseriesdbVersion, NamingRule>>>> = {
  user_events: { 1: plainNames, 2: suffixed(["appId", "appName"]), 3: suffixedWhereTag },
  log_event: { 1: plainNames, 2: suffixed(["result_code"]), 3: suffixedWhereTag },
};

/** The field names of `measurement` on `version`, given every tag name it can have. */
export function fieldNamer(
  measurement: EventMeasurement,
  version: TimeseriesdbVersion,
  tagNames: Iterable<string>,
): FieldNamer {
  return NAMING[measurement][version](new Set(tagNames));
}
