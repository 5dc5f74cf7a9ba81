/**
 * Parquet and QVD batches written to a directory store and read back with independent readers:
 * hyparquet and DuckDB (hive partitioning) for Parquet, qvdrs (the Rust qvd crate) for QVD.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { createDirectoryObjectStore } from "../../../../core/adapters/local/directory-object-store.ts";
import { auditParquetEncoder } from "../../../../core/adapters/parquet/audit-parquet-encoder.ts";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { extractAuditFacts } from "../../../../core/audit/audit-facts.ts";
import { AUDIT_COLUMNS, type AuditRow, toAuditRow } from "../../../../core/audit/audit-row.ts";
import { DestinationWriteError } from "../../../../core/destinations/destination-write-error.ts";
import { auditQvdEncoder } from "../../../../core/destinations/qvd/audit-qvd-encoder.ts";
import { createTableFileDestination } from "../../../../core/destinations/table-file-destination.ts";
import type { ObjectStore } from "../../../../core/ports.ts";
import { parquetEventIds, qvdEventIds } from "../../../helpers/audit-destination-contents.ts";
import {
  acceptedEvent,
  deeplyNestedEvent,
  objectDataEvent,
  oddEvents,
} from "../../../helpers/audit-events.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";

interface QvdrsTable {
  numRows: number;
  columns: string[];
  head(n: number): Record<string, string | null>[];
}
const qvdrs = createRequire(import.meta.url)("qvdrs-linux-x64-gnu") as {
  readQvdSync(path: string): QvdrsTable;
};

const STATIC_TAGS = [{ name: "site", value: "nord" }];
const flushedAt = new Date("2026-03-10T08:00:00.000Z");

function sampleEvents(): AcceptedEvent[] {
  const bigObjectData = {
    objectType: "table",
    dimensions: [{ fieldName: "Id", label: "Id", values: Array.from({ length: 10_000 }, (_, i) => `v${i}`) }],
  };
  return [acceptedEvent(), ...oddEvents(), objectDataEvent(bigObjectData)];
}

function expectedRows(events: readonly AcceptedEvent[]): Map<string, AuditRow> {
  return new Map(
    events.map((event) => [event.envelope.eventId, toAuditRow(extractAuditFacts(event), { site: "nord" })]),
  );
}

const scratch = suiteScratchDirectory("steward-tablefile-");

/** The `name` destination's destination into a new directory, and the store over that directory. */
function destinationInto(name: "parquet" | "tablefile") {
  const directory = scratch.fresh(name);
  const store = createDirectoryObjectStore(directory);
  const encoder = name === "parquet" ? auditParquetEncoder : auditQvdEncoder;
  return {
    directory,
    store,
    destination: createTableFileDestination({ name, store, encoder, staticTags: STATIC_TAGS }),
  };
}

describe("parquet destination", () => {
  it("writes one Snappy file per event date that hyparquet reads back value for value", async () => {
    const events = sampleEvents();
    const { store, destination } = destinationInto("parquet");

    await destination.write({ id: "0a1b2c3d", flushedAt, events });

    const keys = await store.list("");
    expect(keys).toEqual([
      "date=2026-03-08/20260310T080000000Z-0a1b2c3d.parquet",
      "date=2026-03-09/20260310T080000000Z-0a1b2c3d.parquet",
    ]);
    const expected = expectedRows(events);
    let seen = 0;
    for (const key of keys) {
      const bytes = (await store.get(key))!;
      const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const metadata = parquetMetadata(file);
      expect(metadata.row_groups[0]?.columns.every((c) => c.meta_data?.codec === "SNAPPY")).toBe(true);
      expect(metadata.schema.slice(1).every((element) => element.repetition_type === "OPTIONAL")).toBe(true);
      for (const row of await parquetReadObjects({ file })) {
        const want = expected.get(row.eventId as string)!;
        expect(key.startsWith(`date=${new Date(want.timestamp!).toISOString().slice(0, 10)}/`)).toBe(true);
        expect(row).toEqual({
          ...want,
          timestamp: new Date(want.timestamp!),
          durationMs: want.durationMs === null ? null : BigInt(want.durationMs),
          dataStateId: want.dataStateId === null ? null : BigInt(want.dataStateId),
        });
        seen += 1;
      }
    }
    expect(seen).toBe(events.length);
  });

  it("is readable by DuckDB with hive partitioning, the partition date matching the event date", async () => {
    const events = sampleEvents();
    const { directory, destination } = destinationInto("parquet");
    await destination.write({ id: "11111111", flushedAt, events: events.slice(0, 3) });
    await destination.write({ id: "22222222", flushedAt, events: events.slice(3) });

    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    const result = await connection.runAndReadAll(
      `SELECT eventId, strftime(date, '%Y%m%d') AS partitionDay, epoch_ms(timestamp) AS ms, appName, visible,
              durationMs, length(objectData) AS objectDataLength, tags
         FROM read_parquet('${directory}/**/*.parquet', hive_partitioning = true)`,
    );
    const rows = result.getRowObjectsJS();

    const expected = expectedRows(events);
    expect(rows).toHaveLength(events.length);
    for (const row of rows) {
      const want = expected.get(row.eventId as string)!;
      expect(row).toEqual({
        eventId: want.eventId,
        partitionDay: want.date,
        ms: BigInt(want.timestamp!),
        appName: want.appName,
        visible: want.visible,
        durationMs: want.durationMs === null ? null : BigInt(want.durationMs),
        objectDataLength: want.objectData === null ? null : BigInt([...want.objectData].length),
        tags: '{"site":"nord"}',
      });
    }
    connection.closeSync();
  });

  it("files an event without a readable timestamp under the day it was received, else the flush day", async () => {
    const dated = acceptedEvent();
    const received = {
      ...acceptedEvent({ timestamp: "not a time" }),
      receivedAt: "2026-03-09T23:59:59.999Z",
    };
    const neither = { ...acceptedEvent({ timestamp: "not a time" }), receivedAt: "never" };
    const { directory, store, destination } = destinationInto("parquet");

    await destination.write({ id: "5e6f7a8b", flushedAt, events: [dated, received, neither] });

    expect(await store.list("")).toEqual([
      "date=2026-03-08/20260310T080000000Z-5e6f7a8b.parquet",
      "date=2026-03-09/20260310T080000000Z-5e6f7a8b.parquet",
      "date=2026-03-10/20260310T080000000Z-5e6f7a8b.parquet",
    ]);
    expect((await parquetEventIds(directory)).sort()).toEqual(
      [dated, received, neither].map((e) => e.envelope.eventId).sort(),
    );
  });
});

describe("parquet destination: a batch of 1,200 events", () => {
  it("writes row groups of at most 500 rows, which read back as one table of every event", async () => {
    const events = Array.from({ length: 1200 }, () => acceptedEvent());
    const { directory, store, destination } = destinationInto("parquet");

    await destination.write({ id: "1a2b3c4d", flushedAt, events });

    const [key] = await store.list("");
    const bytes = (await store.get(key as string))!;
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    expect(parquetMetadata(file).row_groups.map((group) => Number(group.num_rows))).toEqual([500, 500, 200]);
    expect((await parquetEventIds(directory)).sort()).toEqual(events.map((e) => e.envelope.eventId).sort());
  });
});

describe.each(["parquet", "tablefile"] as const)(
  "%s destination: writing a batch of 1,200 events",
  (name) => {
    it("gives way to the event loop between pieces of the work, before the file is stored", async () => {
      const events = Array.from({ length: 1200 }, () => acceptedEvent());
      const { store } = destinationInto(name);
      // A chain of turns, as requests waiting on the loop would take them; counted up to the put.
      let turns = 0;
      let running = true;
      const tick = () => {
        turns += 1;
        if (running) setImmediate(tick);
      };
      let turnsAtPut: number | undefined;
      const counting: ObjectStore = {
        ...store,
        put: async (key, body) => {
          turnsAtPut ??= turns;
          await store.put(key, body);
        },
      };
      const destination = createTableFileDestination({
        name,
        store: counting,
        encoder: name === "parquet" ? auditParquetEncoder : auditQvdEncoder,
        staticTags: STATIC_TAGS,
      });

      setImmediate(tick);
      await destination.write({ id: "2b3c4d5e", flushedAt, events });
      running = false;

      // Rows in pieces of 250 (four turns between five pieces); Parquet in three row groups, QVD
      // five fields at a time.
      expect(turnsAtPut).toBeGreaterThanOrEqual(6);
    });
  },
);

describe("tablefile destination", () => {
  it("writes QVD files that qvdrs reads back with every value, nulls, unicode and booleans as -1/0", async () => {
    const events = sampleEvents();
    const { directory, store, destination } = destinationInto("tablefile");

    await destination.write({ id: "33333333", flushedAt, events });

    const keys = await store.list("");
    expect(keys).toEqual([
      "date=2026-03-08/20260310T080000000Z-33333333.qvd",
      "date=2026-03-09/20260310T080000000Z-33333333.qvd",
    ]);
    const expected = expectedRows(events);
    let seen = 0;
    for (const key of keys) {
      const table = qvdrs.readQvdSync(path.join(directory, key));
      expect(table.columns).toEqual(AUDIT_COLUMNS.map((column) => column.name));
      for (const row of table.head(table.numRows)) {
        const want = expected.get(row.eventId as string)!;
        const asQlik = Object.fromEntries(
          Object.entries(want).map(([name, value]) => [
            name,
            value === null ? null : typeof value === "boolean" ? (value ? "-1" : "0") : String(value),
          ]),
        );
        expect(row).toEqual(asQlik);
        seen += 1;
      }
    }
    expect(seen).toBe(events.length);
  });
});

describe.each(["parquet", "tablefile"] as const)("%s destination: an event it cannot encode", (name) => {
  it("is refused on its own as unencodable, the rest of its batch written", async () => {
    const events = sampleEvents();
    const poison = deeplyNestedEvent();
    const { directory, destination } = destinationInto(name);

    const error = await destination
      .write({ id: "44444444", flushedAt, events: [...events.slice(0, 2), poison, ...events.slice(2)] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DestinationWriteError);
    const refused = error as DestinationWriteError;
    expect(refused.refused).toBe(true);
    expect(refused.failedEvents).toEqual([poison]);
    expect(
      refused.refusals?.map(({ reason, count, events: named, detail }) => [reason, count, named, detail]),
    ).toEqual([["unencodable", 1, [poison], "RangeError: Maximum call stack size exceeded"]]);
    expect((await storedEventIds(name, directory)).sort()).toEqual(
      events.map((e) => e.envelope.eventId).sort(),
    );
  });

  it("reports the events of a file it could not store as an outage, with the refusal beside them", async () => {
    const events = sampleEvents();
    const poison = deeplyNestedEvent();
    const { store } = destinationInto(name);
    let puts = 0;
    const failingOnce: ObjectStore = {
      ...store,
      put: async (key, bytes) => {
        puts += 1;
        if (key.startsWith("date=2026-03-08/")) throw new Error("disk full");
        await store.put(key, bytes);
      },
    };
    const encoder = name === "parquet" ? auditParquetEncoder : auditQvdEncoder;
    const destination = createTableFileDestination({
      name,
      store: failingOnce,
      encoder,
      staticTags: STATIC_TAGS,
    });

    const error = (await destination
      .write({ id: "55555555", flushedAt, events: [poison, ...events] })
      .catch((e: unknown) => e)) as DestinationWriteError;

    const onMarch8 = events.filter((event) => toAuditRow(extractAuditFacts(event), null).date === "20260308");
    expect(puts).toBe(2);
    expect(error.refused).toBe(false);
    expect(error.failedEvents).toEqual(onMarch8);
    expect(error.message).toContain("disk full");
    expect(error.refusals?.map(({ reason, events: named }) => [reason, named])).toEqual([
      ["unencodable", [poison]],
    ]);
  });
});

describe("tablefile destination: a text QVD cannot hold", () => {
  it("refuses the event whose text holds NUL as unencodable and writes a file qvdrs reads with the others", async () => {
    const events = sampleEvents();
    const withNul = acceptedEvent({
      payload: { context: { appName: "Sales\u0000Nord", sheetName: "after the NUL" }, event: {} },
    });
    const { directory, store, destination } = destinationInto("tablefile");

    const error = (await destination
      .write({ id: "66666666", flushedAt, events: [...events, withNul] })
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(error.refused).toBe(true);
    expect(error.refusals?.map(({ reason, events: named, detail }) => [reason, named, detail])).toEqual([
      ["unencodable", [withNul], "QvdEncodeError: a QVD text cannot hold the character NUL (U+0000)"],
    ]);
    const ids: string[] = [];
    for (const key of await store.list("")) {
      const table = qvdrs.readQvdSync(path.join(directory, key));
      for (const row of table.head(table.numRows)) ids.push(row.eventId as string);
    }
    expect(ids.sort()).toEqual(events.map((e) => e.envelope.eventId).sort());
  });
});

/** The eventIds of every row of the files under `directory`. */
async function storedEventIds(name: "parquet" | "tablefile", directory: string): Promise<string[]> {
  return name === "parquet" ? parquetEventIds(directory) : qvdEventIds(directory);
}
