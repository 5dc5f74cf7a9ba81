import { describe, expect, it } from "vitest";
import type { TimeseriesdbVersion } from "../../../../core/config/schema/timeseriesdb.ts";
import { createHealthPointMapper } from "../../../../core/polling/health-points.ts";
import type { AppNameCache } from "../../../../core/ports.ts";
import {
  booleanField,
  encodePoint,
  type FieldValue,
  floatField,
  integerField,
  type Point,
  stringField,
  unsignedField,
} from "../../../../core/shared/line-protocol.ts";
import {
  appNames,
  FINANCE_ID,
  HEALTH,
  SALES_ID,
  SESSION_APP_A,
  SESSION_APP_B,
  STARTED_MS,
  TAGS,
  UNKNOWN_ID,
} from "./polling-fixtures.ts";

const AT = STARTED_MS + 3 * 86_400_000 + 4 * 3_600_000 + 5 * 60_000 + 6_000;
const ALL = { activeDocs: true, loadedDocs: true, inMemoryDocs: true };
const NONE = { activeDocs: false, loadedDocs: false, inMemoryDocs: false };

function points(
  version: TimeseriesdbVersion,
  includeFields: typeof ALL,
  names: AppNameCache | undefined,
): Map<string, Point> {
  const mapped = createHealthPointMapper({ version, includeFields, appNames: names })(HEALTH, TAGS, AT);
  return new Map(mapped.map((p) => [p.measurement, p]));
}

function fields(version: TimeseriesdbVersion, measurement: string, includeFields = ALL) {
  return points(version, includeFields, appNames()).get(measurement)?.fields;
}

const kinds = (f: Readonly<Record<string, FieldValue>> | undefined) =>
  Object.fromEntries(Object.entries(f ?? {}).map(([k, value]) => [k, value.kind]));

describe("createHealthPointMapper: measurements and field types", () => {
  it("writes the 8 measurements in order, each with the server tags and the poll time", () => {
    const mapped = createHealthPointMapper({ version: 3, includeFields: NONE, appNames: undefined })(
      HEALTH,
      TAGS,
      AT,
    );

    expect(mapped.map((p) => p.measurement)).toEqual([
      "sense_server",
      "mem",
      "apps",
      "cpu",
      "session",
      "users",
      "cache",
      "saturated",
    ]);
    for (const point of mapped) {
      expect(point.tags).toEqual(TAGS);
      expect(point.timestampMs).toBe(AT);
    }
  });

  it.each([1, 2, 3] as const)(
    "v%d: sense_server has version, started and the uptime as strings",
    (version) => {
      expect(fields(version, "sense_server")).toEqual({
        version: stringField("12.1306.1"),
        started: stringField("20211109T153726.028+0200"),
        uptime: stringField("3 days, 4h 05m 06s"),
      });
    },
  );

  it("v1: mem fields (comitted [sic]) and cpu total are rounded integers", () => {
    expect(fields(1, "mem")).toEqual({
      comitted: integerField(4108),
      allocated: integerField(4213),
      free: integerField(10513),
    });
    expect(fields(1, "cpu")).toEqual({ total: integerField(4) });
  });

  it("v2: mem fields and cpu total are floats", () => {
    expect(fields(2, "mem")).toEqual({
      comitted: floatField(4107.5),
      allocated: floatField(4213.25),
      free: floatField(10512.75),
    });
    expect(fields(2, "cpu")).toEqual({ total: floatField(3.6) });
  });

  it("v3: mem fields are floats and cpu total an integer", () => {
    expect(fields(3, "mem")).toEqual({
      comitted: floatField(4107.5),
      allocated: floatField(4213.25),
      free: floatField(10512.75),
    });
    expect(fields(3, "cpu")).toEqual({ total: integerField(4) });
  });

  it.each([1, 3] as const)("v%d: session, users, cache are integers and saturated a boolean", (version) => {
    expect(fields(version, "session")).toEqual({ active: integerField(2), total: integerField(5) });
    expect(fields(version, "users")).toEqual({ active: integerField(1), total: integerField(3) });
    expect(fields(version, "cache")).toEqual({
      hits: integerField(120),
      lookups: integerField(360),
      added: integerField(200),
      replaced: integerField(7),
      bytes_added: integerField(1048576),
    });
    expect(fields(version, "saturated")).toEqual({ saturated: booleanField(false) });
  });

  it("v2: session, users, cache hits and lookups are unsigned as Butler SOS wrote them, the other cache counts integers", () => {
    expect(fields(2, "session")).toEqual({ active: unsignedField(2), total: unsignedField(5) });
    expect(fields(2, "users")).toEqual({ active: unsignedField(1), total: unsignedField(3) });
    expect(fields(2, "cache")).toEqual({
      hits: unsignedField(120),
      lookups: unsignedField(360),
      added: integerField(200),
      replaced: integerField(7),
      bytes_added: integerField(1048576),
    });
    expect(fields(2, "saturated")).toEqual({ saturated: booleanField(false) });
  });

  it.each([
    [1, "integer"],
    [2, "unsigned"],
    [3, "integer"],
  ] as const)(
    "v%d: apps has counts as integers, calls and selections as %s, lists as strings",
    (version, tally) => {
      expect(kinds(fields(version, "apps"))).toEqual({
        active_docs_count: "integer",
        loaded_docs_count: "integer",
        in_memory_docs_count: "integer",
        active_docs: "string",
        active_docs_names: "string",
        active_session_docs_names: "string",
        loaded_docs: "string",
        loaded_docs_names: "string",
        loaded_session_docs_names: "string",
        in_memory_docs: "string",
        in_memory_docs_names: "string",
        in_memory_session_docs_names: "string",
        calls: tally,
        selections: tally,
      });
      const apps = fields(version, "apps");
      expect(apps?.active_docs_count).toEqual(integerField(2));
      expect(apps?.loaded_docs_count).toEqual(integerField(5));
      expect(apps?.in_memory_docs_count).toEqual(integerField(2));
      expect(apps?.calls).toEqual({ kind: tally, value: 4567 });
      expect(apps?.selections).toEqual({ kind: tally, value: 123 });
    },
  );

  it("encodes v1 mem with the integer suffix and v2 mem without", () => {
    const v1 = points(1, ALL, undefined).get("mem");
    const v2 = points(2, ALL, undefined).get("mem");

    expect(v1 && encodePoint(v1)).toContain(" comitted=4108i,allocated=4213i,free=10513i ");
    expect(v2 && encodePoint(v2)).toContain(" comitted=4107.5,allocated=4213.25,free=10512.75 ");
  });
});

describe("createHealthPointMapper: app names, lists and uptime", () => {
  it('v1 joins names as "A","B"; the id lists comma-joined as received', () => {
    const apps = fields(1, "apps");

    expect(apps?.active_docs).toEqual(stringField(`${SALES_ID},${SESSION_APP_A}`));
    expect(apps?.active_docs_names).toEqual(stringField('"Sales"'));
    expect(apps?.active_session_docs_names).toEqual(stringField(`"${SESSION_APP_A}"`));
    expect(apps?.loaded_docs).toEqual(
      stringField([UNKNOWN_ID, SALES_ID, FINANCE_ID, SESSION_APP_B, SESSION_APP_A].join(",")),
    );
    expect(apps?.loaded_docs_names).toEqual(stringField(`"${UNKNOWN_ID}","Finance","Sales"`));
    expect(apps?.loaded_session_docs_names).toEqual(stringField(`"${SESSION_APP_B}","${SESSION_APP_A}"`));
    expect(apps?.in_memory_docs_names).toEqual(stringField('"Finance","Sales"'));
    expect(apps?.in_memory_session_docs_names).toEqual(stringField(""));
  });

  it.each([2, 3] as const)("v%d joins names as A,B", (version) => {
    const apps = fields(version, "apps");

    expect(apps?.active_docs_names).toEqual(stringField("Sales"));
    expect(apps?.loaded_docs_names).toEqual(stringField(`${UNKNOWN_ID},Finance,Sales`));
    expect(apps?.loaded_session_docs_names).toEqual(stringField(`${SESSION_APP_B},${SESSION_APP_A}`));
    expect(apps?.in_memory_docs_names).toEqual(stringField("Finance,Sales"));
  });

  it("writes '' for the lists whose includeFields flag is off", () => {
    const apps = fields(2, "apps", { activeDocs: false, loadedDocs: true, inMemoryDocs: false });

    expect(apps?.active_docs).toEqual(stringField(""));
    expect(apps?.active_docs_names).toEqual(stringField(""));
    expect(apps?.active_session_docs_names).toEqual(stringField(""));
    expect(apps?.loaded_docs).toEqual(
      stringField([UNKNOWN_ID, SALES_ID, FINANCE_ID, SESSION_APP_B, SESSION_APP_A].join(",")),
    );
    expect(apps?.loaded_docs_names).toEqual(stringField(`${UNKNOWN_ID},Finance,Sales`));
    expect(apps?.in_memory_docs).toEqual(stringField(""));
    expect(apps?.in_memory_docs_names).toEqual(stringField(""));
    expect(apps?.in_memory_session_docs_names).toEqual(stringField(""));
    expect(apps?.active_docs_count).toEqual(integerField(2));
  });

  it("writes the id lists but '' for every name list when app names are not extracted", () => {
    const apps = points(1, ALL, undefined).get("apps")?.fields;

    expect(apps?.active_docs).toEqual(stringField(`${SALES_ID},${SESSION_APP_A}`));
    for (const name of [
      "active_docs_names",
      "active_session_docs_names",
      "loaded_docs_names",
      "loaded_session_docs_names",
      "in_memory_docs_names",
      "in_memory_session_docs_names",
    ]) {
      expect(apps?.[name]).toEqual(stringField(""));
    }
  });

  it("writes uptime '' when started does not parse", () => {
    const mapped = createHealthPointMapper({ version: 2, includeFields: NONE, appNames: undefined })(
      { ...HEALTH, started: "not a time" },
      TAGS,
      AT,
    );

    expect(mapped[0]?.fields.uptime).toEqual(stringField(""));
  });
});
