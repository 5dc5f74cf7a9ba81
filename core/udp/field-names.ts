/**
 * Field names of the UDP event measurements. InfluxDB v3 refuses a tag and a field of one name
 * in a measurement (a table column has one role), so where the reference's v1 names collide —
 * `userFull` is both a tag and a field of `user_events`, `result_code` of `log_event` — the field
 * is written as `<name>_field`, for every database version alike (CONTRACT §7), so dashboards see
 * one schema whichever version stores it. The check is measurement-wide: one source's field
 * must not share a name with another source's tag, nor with a configured tag or category.
 */

export const FIELD_SUFFIX = "_field";

/** Maps a field name to the name it is written under, given every tag name of the measurement. */
export function fieldNamer(tagNames: Iterable<string>): (field: string) => string {
  const tags = new Set(tagNames);
  return (field) => (tags.has(field) ? `${field}${FIELD_SUFFIX}` : field);
}
