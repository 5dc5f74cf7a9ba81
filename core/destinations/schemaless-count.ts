/**
 * How a count is typed, per database version, in the measurements that Butler SOS wrote to
 * InfluxDB 1.x without a schema (`event_count`, `rejected_event_count`, the queue metrics,
 * `butler_sos_errors`). Its 1.x client (node-influx) writes a number of a measurement it has no
 * schema for as a bare number, which InfluxDB stores as a float; a database a Butler SOS site
 * already has therefore holds these counts as floats and refuses an integer into them (`field
 * type conflict`, the whole point dropped). Its 2.x and 3.x writers declare them integers.
 * Counts are whole numbers on every version (rounded here, as it rounds the current rate).
 */
import type { TimeseriesdbVersion } from "../config/index.ts";
import { type FieldValue, floatField, integerField } from "../shared/line-protocol.ts";

export type CountField = (count: number) => FieldValue;

const asInteger: CountField = (count) => integerField(Math.round(count));

export const SCHEMALESS_COUNT: Readonly<Record<TimeseriesdbVersion, CountField>> = {
  1: (count) => floatField(Math.round(count)),
  2: asInteger,
  3: asInteger,
};
