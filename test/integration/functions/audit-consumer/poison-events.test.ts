/**
 * One event no destination can write, among good ones in an SQS batch received from
 * local-aws-sqs: its message is acknowledged (not named in the partial batch response, so it
 * never comes back nor takes the batch to the dead-letter queue), its refusal logged and counted
 * per destination, and the good events are written to s3rver as Parquet and objectData files.
 * The event is the one an older ingest function sent as the request's text: objectData nested
 * 100,000 brackets deep, which JSON.stringify cannot encode. With an outage beside it (S3 failing,
 * from aws-sdk-client-mock), only the outage's events are named for SQS to deliver again.
 */
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import { parquetReadObjects } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3ObjectStore } from "../../../../core/adapters/aws/s3-object-store.ts";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import type { AuditDestination } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { cloudDestinationAdapters } from "../../../../functions/audit-consumer/cloud-destinations.ts";
import { createAuditConsumer } from "../../../../functions/audit-consumer/consumer.ts";
import { nestedEnvelopeText } from "../../../helpers/audit-envelopes.ts";
import { objectDataEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { type LocalS3, startS3rver } from "../../../helpers/s3rver.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const BUCKET = "steward-poison";
let s3: LocalS3;
let sqs: LocalSqs;

beforeAll(async () => {
  [s3, sqs] = await Promise.all([startS3rver(BUCKET), startLocalSqs()]);
});
afterAll(async () => {
  await Promise.all([s3.close(), sqs.close()]);
});

const POISON_ID = "0b0e4a47-3c2f-4c8e-9d2c-000000000002";
/** Parquet and json destinations writing to s3rver under `prefix`. */
function destinationsUnder(prefix: string, logger = recordingLogger()): AuditDestination[] {
  return selectDestinations(
    destinationConfig(["parquet", "json"], "audit-events"),
    timeseriesConfig(1, 8086),
    cloudDestinationAdapters({ s3: s3.client, bucket: BUCKET, bucketPrefix: prefix, logger }),
  ).map((selected) => selected.destination);
}

async function parquetIds(prefix: string): Promise<string[]> {
  const store = createS3ObjectStore({
    client: s3.client,
    bucket: BUCKET,
    prefix: `${prefix}/audit-events/parquet/`,
  });
  const ids: string[] = [];
  for (const key of await store.list("")) {
    const bytes = (await store.get(key))!;
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    ids.push(...(await parquetReadObjects({ file })).map((row) => String(row.eventId)));
  }
  return ids.sort();
}

async function jsonFileCount(prefix: string): Promise<number> {
  const store = createS3ObjectStore({
    client: s3.client,
    bucket: BUCKET,
    prefix: `${prefix}/audit-events/json/`,
  });
  return (await store.list("")).length;
}

const goodEvents = () => [objectDataEvent({ objectType: "table" }), objectDataEvent({ objectType: "chart" })];
const ids = (events: readonly AcceptedEvent[]) => events.map((event) => event.envelope.eventId).sort();

describe("audit consumer: an event no destination can write", () => {
  it("acknowledges an event the destinations cannot encode, counts its refusal per destination, and writes the rest", async () => {
    const good = goodEvents();
    const records = await sqs.roundTrip(good, [nestedEnvelopeText(POISON_ID, 100_000)]);
    const logger = recordingLogger();
    const consume = createAuditConsumer({
      destinations: destinationsUnder("unencodable"),
      logger,
      clock: systemClock,
    });

    const response = await consume({ Records: records });

    expect(records).toHaveLength(3);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(await parquetIds("unencodable")).toEqual(ids(good));
    expect(await jsonFileCount("unencodable")).toBe(2);
    const refusals = logger.entries.filter((entry) => entry.message.includes("refused audit events"));
    // The destinations write side by side: their lines come in either order.
    const byDestination = refusals
      .map((entry) => [entry.level, entry.fields?.destination, entry.fields?.reason, entry.fields?.eventIds])
      .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(byDestination).toEqual([
      ["error", "json", "unencodable", POISON_ID],
      ["error", "parquet", "unencodable", POISON_ID],
    ]);
    expect(logger.entries.filter((entry) => entry.message.includes("will be retried"))).toEqual([]);
  });

  it("isolates an event a destination keeps throwing a TypeError for: refused as unwritable, the rest written", async () => {
    const good = [...goodEvents(), ...goodEvents(), ...goodEvents()];
    const bad = objectDataEvent({ objectType: "bug" });
    const records = await sqs.roundTrip([...good.slice(0, 4), bad, ...good.slice(4)]);
    const [parquet] = destinationsUnder("fault");
    // A destination with a bug that one event's data sets off.
    const faulty: AuditDestination = {
      name: "parquet",
      async write(batch) {
        if (batch.events.some((event) => event.envelope.eventId === bad.envelope.eventId))
          throw new TypeError("Cannot read properties of undefined (reading 'length')");
        await parquet!.write(batch);
      },
    };
    const logger = recordingLogger();
    const consume = createAuditConsumer({ destinations: [faulty], logger, clock: systemClock });

    const response = await consume({ Records: records });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(await parquetIds("fault")).toEqual(ids(good));
    const refusals = logger.entries.filter((entry) => entry.message.includes("refused audit events"));
    expect(
      refusals.map((entry) => [entry.fields?.reason, entry.fields?.eventIds, entry.fields?.detail]),
    ).toEqual([
      [
        "unwritable",
        bad.envelope.eventId,
        "TypeError: Cannot read properties of undefined (reading 'length')",
      ],
    ]);
  });
});

describe("audit consumer: a refusal and an outage in one batch", () => {
  // mockClient patches every S3Client, so it lives only inside this block.
  let s3Mock: ReturnType<typeof mockClient>;
  beforeAll(() => {
    s3Mock = mockClient(S3Client);
  });
  afterAll(() => s3Mock.restore());

  it("names only the outage's events for SQS to deliver again, and counts the refusal at once", async () => {
    const onEighth = objectDataEvent({ objectType: "table" });
    const onNinth = objectDataEvent({ objectType: "chart" }, { timestamp: "2026-03-09T10:00:00Z" });
    const records = await sqs.roundTrip([onEighth, onNinth], [nestedEnvelopeText(POISON_ID, 100_000)]);
    s3Mock.on(PutObjectCommand).callsFake((input: { Key: string }) => {
      if (input.Key.includes("date=2026-03-09"))
        throw Object.assign(new Error("SlowDown"), { name: "SlowDown" });
      return {};
    });
    const logger = recordingLogger();
    const destinations = selectDestinations(
      destinationConfig(["parquet"], "audit-events"),
      timeseriesConfig(1, 8086),
      cloudDestinationAdapters({
        s3: new S3Client({ region: "us-east-1" }),
        bucket: BUCKET,
        bucketPrefix: "",
        logger,
      }),
    ).map((selected) => selected.destination);
    const consume = createAuditConsumer({ destinations, logger, clock: systemClock });

    const response = await consume({ Records: records });

    const ninth = records.find((record) => record.body === JSON.stringify(onNinth.envelope));
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: ninth?.messageId }]);
    const refusals = logger.entries.filter((entry) => entry.message.includes("refused audit events"));
    expect(refusals.map((entry) => [entry.level, entry.fields?.reason, entry.fields?.eventIds])).toEqual([
      ["error", "unencodable", POISON_ID],
    ]);
    expect(logger.entries.filter((entry) => entry.message.includes("will be retried"))).toHaveLength(1);
  });
});
