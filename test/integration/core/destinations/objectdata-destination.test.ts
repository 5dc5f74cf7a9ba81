import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectoryObjectStore } from "../../../../core/adapters/local/directory-object-store.ts";
import { extractAuditFacts } from "../../../../core/audit/audit-facts.ts";
import { DestinationWriteError } from "../../../../core/destinations/destination-write-error.ts";
import {
  createObjectDataDestination,
  objectDataFileName,
} from "../../../../core/destinations/objectdata-destination.ts";
import type { ObjectStore } from "../../../../core/ports.ts";
import { acceptedEvent, deeplyNestedEvent, objectDataEvent } from "../../../helpers/audit-events.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-json-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const batch = (events: ReturnType<typeof acceptedEvent>[]) => ({ id: "b1", flushedAt: new Date(), events });

describe("objectData json destination", () => {
  it("writes one pretty-printed file per event with objectData, named and shaped as Butler SOS writes them", async () => {
    const directory = path.join(root, "a");
    const objectData = {
      objectType: "table",
      dimensions: [{ fieldName: "Ort", values: ["Göteborg", "", "東京"] }],
    };
    const event = objectDataEvent(objectData, { correlationId: "corr/../1" });
    const destination = createObjectDataDestination({
      store: createDirectoryObjectStore(directory),
      staticTags: [
        { name: "env", value: "prod" },
        { name: "", value: "ignored" },
      ],
      logger: recordingLogger(),
    });

    await destination.write(batch([event, acceptedEvent()]));

    const files = await readdir(directory);
    expect(files).toEqual([`20260308T164626.181Z_${event.envelope.eventId}_corr_.._1.json`]);
    const text = await readFile(path.join(directory, files[0]!), "utf8");
    expect(text).toContain('\n  "eventId": ');
    const document = JSON.parse(text);
    expect(Object.keys(document)).toEqual([
      "eventId",
      "correlationId",
      "timestamp",
      "eventType",
      "user",
      "userDirectory",
      "userId",
      "appId",
      "appName",
      "sheetId",
      "sheetName",
      "objectId",
      "objectType",
      "selectionTxnId",
      "durationMs",
      "visible",
      "enteredAt",
      "leftAt",
      "dataStateId",
      "screenshotUrl",
      "screenshotSavedPaths",
      "selectionDetails",
      "objectData",
      "tags",
    ]);
    expect(document).toMatchObject({
      eventId: event.envelope.eventId,
      correlationId: "corr/../1",
      timestamp: "2026-03-08T16:46:26.181Z",
      eventType: "screenshot.url.received",
      user: "LAB\\anna",
      userDirectory: "LAB",
      userId: "anna",
      objectType: "table",
      objectData,
      tags: { env: "prod" },
    });
  });

  it("names a missing correlationId none and an unparseable timestamp invalid_timestamp", () => {
    const facts = extractAuditFacts(objectDataEvent({}, { correlationId: "", timestamp: "garbage" }));

    expect(objectDataFileName(facts)).toBe(`invalid_timestamp_${facts.eventId}_none.json`);
  });

  it("keeps a 10,000-value objectData whole", async () => {
    const directory = path.join(root, "b");
    const values = Array.from({ length: 10_000 }, (_, i) => `value ${i} ✓`);
    const destination = createObjectDataDestination({
      store: createDirectoryObjectStore(directory),
      staticTags: [],
      logger: recordingLogger(),
    });

    await destination.write(
      batch([objectDataEvent({ objectType: "table", measures: [{ label: "m", values }] })]),
    );

    const [file] = await readdir(directory);
    const document = JSON.parse(await readFile(path.join(directory, file!), "utf8"));
    expect(document.objectData.measures[0].values).toEqual(values);
    expect(document.tags).toBeNull();
  });

  it("reports the events whose file could not be written", async () => {
    const failing: ObjectStore = {
      put: async () => {
        throw new Error("disk full");
      },
      get: async () => undefined,
      list: async () => [],
    };
    const event = objectDataEvent({ objectType: "x" }, { correlationId: "" });
    const destination = createObjectDataDestination({
      store: failing,
      staticTags: [],
      logger: recordingLogger(),
    });

    const error = await destination.write(batch([event])).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DestinationWriteError);
    expect((error as DestinationWriteError).failedEvents).toEqual([event]);
    expect((error as DestinationWriteError).message).toContain("disk full");
  });

  it("writes every file of a large batch, a few at a time, and reports only the events that failed", async () => {
    const written: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const store: ObjectStore = {
      put: async (key) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
        if (key.includes("_corr-13.json")) throw new Error("disk full");
        written.push(key);
      },
      get: async () => undefined,
      list: async () => [],
    };
    const events = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? objectDataEvent({ objectType: "x" }, { correlationId: `corr-${i / 2}` })
        : acceptedEvent(),
    );
    const destination = createObjectDataDestination({ store, staticTags: [], logger: recordingLogger() });

    const error = await destination.write(batch(events)).catch((e: unknown) => e);

    expect(written).toHaveLength(19);
    expect(mostInFlight).toBeGreaterThan(1);
    expect(mostInFlight).toBeLessThanOrEqual(8);
    expect((error as DestinationWriteError).failedEvents).toEqual([events[26]]);
  });
});

describe("objectData json destination: an event it cannot encode", () => {
  it("is refused on its own as unencodable, the files of the others written", async () => {
    const directory = path.join(root, "deep");
    const destination = createObjectDataDestination({
      store: createDirectoryObjectStore(directory),
      staticTags: [],
      logger: recordingLogger(),
    });
    const good = [objectDataEvent({ objectType: "table" }), objectDataEvent({ objectType: "chart" })];
    const poison = deeplyNestedEvent();

    const error = (await destination
      .write(batch([good[0]!, poison, good[1]!]))
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(error).toBeInstanceOf(DestinationWriteError);
    expect(error.refused).toBe(true);
    expect(error.failedEvents).toEqual([poison]);
    expect(error.refusals?.map(({ reason, count, detail }) => [reason, count, detail])).toEqual([
      ["unencodable", 1, "RangeError: Maximum call stack size exceeded"],
    ]);
    expect((await readdir(directory)).sort()).toEqual(
      good.map((event) => objectDataFileName(extractAuditFacts(event))).sort(),
    );
  });
});
