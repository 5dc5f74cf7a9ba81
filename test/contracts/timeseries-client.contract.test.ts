/**
 * The TimeseriesClient contract: InfluxDB v1 against Debian's real influxd 1.x, v2 and v3 against
 * our loopback stand-in that parses line protocol as those servers do. Same suite for all three.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTimeseriesClient } from "../../core/adapters/influx/create-timeseries-client.ts";
import { TimeseriesWriteError } from "../../core/destinations/timeseries-write-error.ts";
import type { TimeseriesClient } from "../../core/ports.ts";
import {
  booleanField,
  encodePoints,
  type FieldValue,
  floatField,
  integerField,
  type Point,
  stringField,
} from "../../core/shared/line-protocol.ts";
import { type FakeInflux, startFakeInflux } from "../helpers/fake-influx.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../helpers/influxd.ts";
import { timeseriesConfig } from "../helpers/timeseries-config.ts";

type Row = Record<string, unknown>;

interface Fixture {
  client(): TimeseriesClient;
  /** Rows of `measurement`, tags and fields flattened, plus `time` (epoch ms). */
  rows(measurement: string): Promise<Row[]>;
  /** Field name → type (`float`, `integer`, `string`, `boolean`) as the server stored it. */
  fieldTypes(measurement: string): Promise<Record<string, string>>;
  retention(): Promise<unknown>;
  expectedRetention: unknown;
  /** The status of a write refused as data: 422 from InfluxDB 2.x's storage engine, else 400. */
  refusedStatus: number;
  /** Whether the server stores the other lines of a request holding an unparsable one. */
  storesBesideUnparsable: boolean;
}

const skipV1 = skipWithoutInfluxd();
let influxd: Influxd | undefined;
let fakeV2: FakeInflux;
let fakeV3: FakeInflux;

beforeAll(async () => {
  [influxd, fakeV2, fakeV3] = await Promise.all([
    skipV1 ? Promise.resolve(undefined) : startInfluxd(),
    startFakeInflux({ version: 2, token: "secret-token", org: "acme" }),
    startFakeInflux({ version: 3, token: "secret-token" }),
  ]);
});

afterAll(async () => {
  await Promise.all([influxd?.close(), fakeV2?.close(), fakeV3?.close()]);
});

function fakeFieldTypes(fake: () => FakeInflux) {
  return async (measurement: string) =>
    Object.fromEntries(
      (fake().databases.get("steward_audit")?.points ?? [])
        .filter((point) => point.measurement === measurement)
        .flatMap((point) => Object.entries(point.fields).map(([name, field]) => [name, field.type])),
    );
}

function fakeRows(fake: () => FakeInflux) {
  return async (measurement: string) =>
    (fake().databases.get("steward_audit")?.points ?? [])
      .filter((point) => point.measurement === measurement)
      .map((point) => ({
        time: point.timestamp,
        ...point.tags,
        ...Object.fromEntries(Object.entries(point.fields).map(([name, field]) => [name, field.value])),
      }));
}

const fixtures: [string, boolean, () => Fixture][] = [
  [
    "v1 (influxd)",
    skipV1,
    () => ({
      client: () => createTimeseriesClient(timeseriesConfig(1, influxd!.port)),
      async rows(measurement) {
        const result = await influxd!.query(`SELECT * FROM "${measurement}"`, "steward_audit");
        const series = result.results[0]?.series?.[0];
        if (series === undefined) return [];
        return series.values.map((values) =>
          Object.fromEntries(
            series.columns.map((column, i) => [column, values[i]]).filter(([, value]) => value !== null),
          ),
        );
      },
      async fieldTypes(measurement) {
        const result = await influxd!.query(`SHOW FIELD KEYS FROM "${measurement}"`, "steward_audit");
        return Object.fromEntries(result.results[0]?.series?.[0]?.values ?? []);
      },
      async retention() {
        const result = await influxd!.query('SHOW RETENTION POLICIES ON "steward_audit"');
        const series = result.results[0]?.series?.[0];
        return series?.values
          .filter((row) => row[series.columns.indexOf("default")] === true)
          .map((row) => [row[0], row[1]]);
      },
      expectedRetention: [["audit_rp", "720h0m0s"]],
      refusedStatus: 400,
      storesBesideUnparsable: true,
    }),
  ],
  [
    "v2 (stand-in)",
    false,
    () => ({
      client: () => createTimeseriesClient(timeseriesConfig(2, fakeV2.port)),
      rows: fakeRows(() => fakeV2),
      fieldTypes: fakeFieldTypes(() => fakeV2),
      retention: async () => fakeV2.databases.get("steward_audit")?.retention,
      expectedRetention: [{ type: "expire", everySeconds: 2_592_000 }],
      refusedStatus: 422,
      storesBesideUnparsable: false,
    }),
  ],
  [
    "v3 (stand-in)",
    false,
    () => ({
      client: () => createTimeseriesClient(timeseriesConfig(3, fakeV3.port)),
      rows: fakeRows(() => fakeV3),
      fieldTypes: fakeFieldTypes(() => fakeV3),
      retention: async () => fakeV3.databases.get("steward_audit")?.retention,
      expectedRetention: "30d",
      refusedStatus: 400,
      storesBesideUnparsable: true,
    }),
  ],
];

describe.each(fixtures)("TimeseriesClient contract: %s, storing", (_name, skip, makeFixture) => {
  it.skipIf(skip)("creates the database with its retention once, and again is a no-op", async () => {
    const fixture = makeFixture();
    const client = fixture.client();

    await client.ensureDatabase();
    await client.ensureDatabase();

    expect(await fixture.retention()).toEqual(fixture.expectedRetention);
  });

  it.skipIf(skip)("writes points with escaped names, unicode, typed fields and ms timestamps", async () => {
    const fixture = makeFixture();
    const client = fixture.client();
    await client.ensureDatabase();
    // Recent times: influxd drops points older than the 30 d retention policy.
    const t0 = Date.now() - 60_000;
    const points: Point[] = [
      {
        measurement: "contract m,1",
        tags: { "app name": "Umsatz, Nord=1 📈", user: "LAB\\anna" },
        fields: {
          text: stringField('say "hi" \\ ok\nnext line'),
          "dur ms": floatField(1234.5),
          count: integerField(42),
          visible: booleanField(true),
        },
        timestampMs: t0,
      },
      {
        measurement: "contract m,1",
        tags: { "app name": "Süd" },
        fields: {
          text: stringField(""),
          "dur ms": floatField(3),
          count: integerField(-1),
          visible: booleanField(false),
        },
        timestampMs: t0 + 1,
      },
    ];

    await client.write(points);

    const rows = (await fixture.rows("contract m,1")).sort((a, b) => Number(a.time) - Number(b.time));
    expect(rows).toEqual([
      {
        time: t0,
        "app name": "Umsatz, Nord=1 📈",
        user: "LAB\\anna",
        text: 'say "hi" \\ ok\nnext line',
        "dur ms": 1234.5,
        count: 42,
        visible: true,
      },
      { time: t0 + 1, "app name": "Süd", text: "", "dur ms": 3, count: -1, visible: false },
    ]);
  });

  it.skipIf(skip)(
    "stores a body of encoded lines exactly as it stores the same points written as points",
    async () => {
      const fixture = makeFixture();
      const client = fixture.client();
      await client.ensureDatabase();
      const t0 = Date.now() - 60_000;
      const points = (measurement: string): Point[] => [
        {
          measurement,
          tags: { "app name": "Umsatz, Nord=1 📈", user: "LAB\\anna", empty: "" },
          fields: {
            text: stringField('say "hi" \\ ok\nnext line'),
            raw_event: stringField(JSON.stringify({ message: 'a "quoted" word', path: "C:\\temp" })),
            "dur ms": floatField(1234.5),
            whole: floatField(3),
            count: integerField(-42),
            visible: booleanField(false),
          },
          timestampMs: t0,
        },
        {
          measurement,
          tags: { "app name": "Süd" },
          fields: {
            text: stringField(""),
            raw_event: stringField("{}"),
            "dur ms": floatField(0.1),
            whole: floatField(7),
            count: integerField(1),
            visible: booleanField(true),
          },
          timestampMs: t0 + 1,
        },
      ];

      await client.write(points("as points"));
      await client.writeLines(Buffer.from(encodePoints(points("as lines"))));

      const byTime = (rows: Row[]) => rows.sort((a, b) => Number(a.time) - Number(b.time));
      const asLines = byTime(await fixture.rows("as lines"));
      expect(asLines).toHaveLength(2);
      expect(asLines).toEqual(byTime(await fixture.rows("as points")));
      const types = await fixture.fieldTypes("as lines");
      expect(types).toEqual({
        text: "string",
        raw_event: "string",
        "dur ms": "float",
        whole: "float",
        count: "integer",
        visible: "boolean",
      });
      expect(await fixture.fieldTypes("as points")).toEqual(types);
    },
  );
});

describe.each(fixtures)("TimeseriesClient contract: %s, refusing data", (_name, skip, makeFixture) => {
  it.skipIf(skip)("refuses a field type conflict as a data error", async () => {
    const fixture = makeFixture();
    const client = fixture.client();
    await client.ensureDatabase();
    await client.write([
      { measurement: "conflict", tags: {}, fields: { v: floatField(1.5) }, timestampMs: Date.now() },
    ]);

    const error = await client
      .write([
        { measurement: "conflict", tags: {}, fields: { v: stringField("x") }, timestampMs: Date.now() + 1 },
      ])
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TimeseriesWriteError);
    expect((error as TimeseriesWriteError).status).toBe(fixture.refusedStatus);
    expect((error as TimeseriesWriteError).refusesData).toBe(true);

    const linesError = await client
      .writeLines(Buffer.from(`conflict v="y" ${BigInt(Date.now() + 2) * 1_000_000n}`))
      .catch((e: unknown) => e);
    expect((linesError as TimeseriesWriteError).status).toBe(fixture.refusedStatus);
    expect((linesError as TimeseriesWriteError).refusesData).toBe(true);
  });

  it.skipIf(skip)(
    "reads a type conflict amid good points as a refusal of those lines, the rest stored",
    async () => {
      const fixture = makeFixture();
      const client = fixture.client();
      await client.ensureDatabase();
      const t0 = Date.now() - 60_000;
      const point = (n: number, value: FieldValue): Point => ({
        measurement: "partial",
        tags: { n: String(n) },
        fields: { v: value },
        timestampMs: t0 + n,
      });
      await client.write([point(0, floatField(1))]);

      const error = (await client
        .write([
          point(1, floatField(2)),
          point(2, stringField("x")),
          point(3, floatField(3)),
          point(4, stringField("y")),
        ])
        .catch((e: unknown) => e)) as TimeseriesWriteError;

      expect(error.refusal).toEqual({
        reason: "field_type_conflict",
        detail: expect.stringMatching(/field|column/),
        count: 2,
        lines: [1, 3],
        restStored: true,
      });
      const stored = (await fixture.rows("partial")).map((row) => row.n).sort();
      expect(stored).toEqual(["0", "1", "3"]);
    },
  );

  it.skipIf(skip)(
    "reads an unparsable line as a refusal naming it, the rest stored as the server does",
    async () => {
      const fixture = makeFixture();
      const client = fixture.client();
      await client.ensureDatabase();
      const t0 = BigInt(Date.now() - 60_000) * 1_000_000n;
      // A tag value ending in a backslash escapes the space after it: no field is left.
      const body = [
        `unparsable,k=a v=1 ${t0}`,
        `unparsable,k=b\\ v=2 ${t0 + 1n}`,
        `unparsable,k=c v=3 ${t0 + 2n}`,
      ];

      const error = (await client
        .writeLines(Buffer.from(body.join("\n")))
        .catch((e: unknown) => e)) as TimeseriesWriteError;

      expect(error.refusal).toMatchObject({
        reason: "unparsable",
        count: 1,
        lines: [1],
        restStored: fixture.storesBesideUnparsable,
      });
      const stored = (await fixture.rows("unparsable")).map((row) => row.k).sort();
      expect(stored).toEqual(fixture.storesBesideUnparsable ? ["a", "c"] : []);
    },
  );
});

describe("TimeseriesClient against an unreachable server", () => {
  it.each([1, 2, 3] as const)("v%i throws TimeseriesWriteError without a status", async (version) => {
    const client = createTimeseriesClient(timeseriesConfig(version, 1));

    const errors = [
      await client
        .write([{ measurement: "m", tags: {}, fields: { v: floatField(1) } }])
        .catch((e: unknown) => e),
      await client.writeLines(Buffer.from("m v=1")).catch((e: unknown) => e),
    ];

    for (const error of errors) {
      expect(error).toBeInstanceOf(TimeseriesWriteError);
      expect((error as TimeseriesWriteError).status).toBeUndefined();
      expect((error as TimeseriesWriteError).refusesData).toBe(false);
    }
  });
});

describe("InfluxDB v2/v3 requests", () => {
  it("v2 sends Token auth, org, bucket and ns precision", async () => {
    const client = createTimeseriesClient(timeseriesConfig(2, fakeV2.port));
    await client.ensureDatabase();
    fakeV2.requests.length = 0;

    await client.write([{ measurement: "m", tags: {}, fields: { v: floatField(1) } }]);

    const [request] = fakeV2.requests;
    expect(request?.path).toBe("/api/v2/write");
    expect(Object.fromEntries(request!.query)).toEqual({
      org: "acme",
      bucket: "steward_audit",
      precision: "ns",
    });
    expect(request?.headers.authorization).toBe("Token secret-token");
  });

  it("v3 sends Bearer auth, db and nanosecond precision", async () => {
    const client = createTimeseriesClient(timeseriesConfig(3, fakeV3.port));
    await client.ensureDatabase();
    fakeV3.requests.length = 0;

    await client.write([{ measurement: "m", tags: {}, fields: { v: floatField(1) } }]);

    const [request] = fakeV3.requests;
    expect(request?.path).toBe("/api/v3/write_lp");
    expect(Object.fromEntries(request!.query)).toEqual({ db: "steward_audit", precision: "nanosecond" });
    expect(request?.headers.authorization).toBe("Bearer secret-token");
  });

  it("v2 with a wrong token fails ensureDatabase with 401, not as a data error", async () => {
    const client = createTimeseriesClient(timeseriesConfig(2, fakeV2.port, "wrong"));

    const error = await client.ensureDatabase().catch((e: unknown) => e);

    expect((error as TimeseriesWriteError).status).toBe(401);
    expect((error as TimeseriesWriteError).refusesData).toBe(false);
  });
});
