/**
 * Names with backslashes, separators and line breaks (a user event's directory and id come from a
 * datagram anyone can send) written to Debian's InfluxDB 1.x: every point of a request is stored,
 * with the values docs/configuration.md#what-influxdb-stores states, through both write
 * paths (points, and the agent's lines encoded as they are buffered); a point that cannot be one
 * line is refused alone as `unencodable`, counted once, and the rest of its request is written.
 */
import { describe, expect, it } from "vitest";
import { createInfluxV1Client } from "../../../../core/adapters/influx/influx-v1-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import { startPeriodicWriter } from "../../../../core/destinations/periodic-writer.ts";
import { writeWithinSizeLimit } from "../../../../core/destinations/write-within-size-limit.ts";
import { integerField, type Point } from "../../../../core/shared/line-protocol.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { applyLayout, splitFields } from "../../../../core/udp/apply-layout.ts";
import { USER_SESSION_LAYOUT } from "../../../../core/udp/field-layouts.ts";
import { createUserAgentParser } from "../../../../core/udp/user-agent.ts";
import { createUserEventEnricher } from "../../../../core/udp/user-event.ts";
import { createUserEventPointMapper } from "../../../../core/udp/user-event-point.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip, influxd } = influxdForSuite();

function client(dbName: string) {
  const config = timeseriesConfig(1, influxd.port);
  return createInfluxV1Client({ ...config, v1Config: { ...config.v1Config, dbName } });
}

/** The six user events: one with directory `LAB y=` and user id `x\`, between five plain ones. */
const DIRECTORIES_AND_IDS: readonly [string, string][] = [
  ["LAB", "anna"],
  ["LAB", "bert"],
  ["LAB y=", "x\\"],
  ["LAB", "carl"],
  ["LAB", "dora"],
  ["LAB", "emil"],
];

function userEventPoints(): Point[] {
  const enrich = createUserEventEnricher({ nameOf: () => undefined }, createUserAgentParser());
  const toPoint = createUserEventPointMapper([], 1);
  const base = Date.now() - 60_000;
  return DIRECTORIES_AND_IDS.map(([directory, id], n) => {
    const datagram = `/qseow-proxy-session/;host2;Start session;${directory};${id};https://host2;/hub;UserAgent: Chrome/91.0`;
    const record = applyLayout(USER_SESSION_LAYOUT, splitFields(datagram, USER_SESSION_LAYOUT) ?? []);
    return toPoint(enrich(record), base + n);
  });
}

interface StoredUserEvent {
  tags: Record<string, string>;
  userIdField: string;
  userFullField: string;
}

/** The user events stored, by user id tag: on InfluxDB 1.x the fields share the tags' names. */
async function storedUserEvents(dbName: string): Promise<Map<string, StoredUserEvent>> {
  const answer = await influxd.query(
    'SELECT "userId"::field AS uid, "userFull"::field AS ufull FROM "user_events" GROUP BY *',
    dbName,
  );
  const stored = new Map<string, StoredUserEvent>();
  for (const series of answer.results[0]?.series ?? []) {
    const { tags } = series as unknown as { tags: Record<string, string> };
    for (const row of series.values) {
      stored.set(tags.userId as string, { tags, userIdField: String(row[1]), userFullField: String(row[2]) });
    }
  }
  return stored;
}

describe.skipIf(skip)("line protocol into InfluxDB 1.x: names InfluxDB cannot take as they are", () => {
  it("stores all six user events of a request, the one with directory `LAB y=` and id `x\\` as stated", async () => {
    const series = client("lp_six_points");
    await series.ensureDatabase();

    await series.write(userEventPoints());

    const stored = await storedUserEvents("lp_six_points");
    expect([...stored.keys()].sort()).toEqual(["anna", "bert", "carl", "dora", "emil", "x"]);
    // Tags: the trailing backslash dropped; fields: the values as sent.
    expect(stored.get("x")).toEqual({
      tags: expect.objectContaining({ userDirectory: "LAB y=", userId: "x", userFull: "LAB y=\\x" }),
      userIdField: "x\\",
      userFullField: "LAB y=\\x\\",
    });
    expect(stored.get("anna")?.tags).toMatchObject({ userDirectory: "LAB", userFull: "LAB\\anna" });
  });

  it("stores them all through the agent's points destination, its lines encoded as they are buffered", async () => {
    const series = client("lp_six_lines");
    const destinations = createEventDestinations({
      maxBatchSize: 10,
      series,
      clock: systemClock,
      logger: recordingLogger(),
    });

    await destinations.writePoints(userEventPoints());
    await destinations.stop();

    expect([...(await storedUserEvents("lp_six_lines")).keys()].sort()).toEqual([
      "anna",
      "bert",
      "carl",
      "dora",
      "emil",
      "x",
    ]);
    expect(destinations.stats().timeseriesdb).toMatchObject({ written: 6, rejected: 0 });
  });

  it("stores a backslash before a comma, = or space doubled, any other as it is", async () => {
    const sent = ["a\\,b", "a\\=b", "a\\ b", "a\\\\,b", 'a\\"b', "\\\\server\\share", "x\\\\", "a\tb\nc"];
    const series = client("lp_stored_forms");
    await series.ensureDatabase();
    const base = Date.now() - 60_000;

    await series.write(
      sent.map((value, n) => ({
        measurement: "forms",
        tags: { n: String(n), [`key ${value}`]: value },
        fields: { [`field ${value}`]: integerField(n) },
        timestampMs: base + n,
      })),
    );

    const answer = await influxd.query("SELECT * FROM forms GROUP BY *", "lp_stored_forms");
    const rows = (answer.results[0]?.series ?? []).map((one) => {
      const { tags, columns, values } = one as unknown as {
        tags: Record<string, string>;
        columns: string[];
        values: unknown[][];
      };
      const row = values[0] ?? [];
      const field = columns.find((_column, index) => index > 0 && row[index] !== null);
      const [key, value] = Object.entries(tags).find(([name]) => name !== "n" && tags[name] !== "") ?? [];
      return { n: Number(tags.n), key, value, field };
    });
    const expected = [
      "a\\\\,b",
      "a\\\\=b",
      "a\\\\ b",
      "a\\\\\\\\,b",
      'a\\"b',
      "\\\\server\\share",
      "x",
      "a b c",
    ];
    expect(rows.sort((a, b) => a.n - b.n)).toEqual(
      expected.map((value, n) => ({ n, key: `key ${value}`, value, field: `field ${value}` })),
    );
  });
});

describe.skipIf(skip)("line protocol into InfluxDB 1.x: a point that cannot be written as one line", () => {
  // InfluxDB skips a line starting with # as a comment and answers 204: sent, it would be lost
  // without a word. No escape makes it a measurement name.
  const points = (base: number): Point[] => [
    { measurement: "kept", tags: { n: "0" }, fields: { n: integerField(0) }, timestampMs: base },
    { measurement: "#comment", tags: { n: "1" }, fields: { n: integerField(1) }, timestampMs: base + 1 },
    { measurement: "kept", tags: { n: "2" }, fields: { n: integerField(2) }, timestampMs: base + 2 },
  ];

  async function keptRows(dbName: string): Promise<number[]> {
    const answer = await influxd.query("SELECT n FROM kept", dbName);
    return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => Number(row[1]));
  }

  it("is refused alone as unencodable on the write path every writer shares, and the rest is written", async () => {
    const series = client("lp_unencodable");
    await series.ensureDatabase();
    const batch = points(Date.now() - 60_000);
    let requests = 0;

    const refusals = await writeWithinSizeLimit(batch.length, (indices) => {
      requests += 1;
      return series.write(indices === undefined ? batch : indices.map((i) => batch[i] as Point));
    });

    expect(refusals).toEqual([
      {
        reason: "unencodable",
        detail: expect.stringMatching(/#comment cannot be written as one line: .*comment/),
        count: 1,
        lines: [1],
        restStored: true,
      },
    ]);
    expect(requests).toBe(2);
    expect(await keptRows("lp_unencodable")).toEqual([0, 2]);
  });

  it("is refused, counted and named once by the agent's points destination, the others written", async () => {
    const series = client("lp_unencodable_agent");
    const logger = recordingLogger();
    const destinations = createEventDestinations({ maxBatchSize: 10, series, clock: systemClock, logger });

    await destinations.writePoints(points(Date.now() - 60_000));
    await destinations.stop();

    expect(await keptRows("lp_unencodable_agent")).toEqual([0, 2]);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 2,
      rejected: 1,
      refused: { unencodable: 1 },
    });
    const named = logger.at("error").filter((entry) => entry.message.includes("cannot be encoded"));
    expect(named).toHaveLength(1);
    expect(named[0]?.fields).toMatchObject({ measurement: "#comment", rejected: 1 });
  });

  it("is refused by an interval writer, which writes the others and goes on writing", async () => {
    const series = client("lp_unencodable_interval");
    const logger = recordingLogger();
    let takes = 0;
    const writer = startPeriodicWriter({
      name: "counts",
      intervalMs: 20,
      sources: [{ take: (now) => ({ points: points(now - 60_000 + (takes++ % 1000) * 10), written() {} }) }],
      series,
      clock: systemClock,
      logger,
    });

    await until(() => (writer.stats().refused?.unencodable ?? 0) >= 2);
    await writer.stop();

    expect((await keptRows("lp_unencodable_interval")).length).toBeGreaterThanOrEqual(4);
    expect(writer.stats()).toMatchObject({ failedWrites: 0, lastRefusal: { reason: "unencodable" } });
    const refusal = logger.at("error").find((entry) => entry.fields?.reason === "unencodable");
    expect(refusal?.fields).toMatchObject({
      points: 1,
      preview: "#comment (cannot be written as line protocol)",
    });
  });
});
