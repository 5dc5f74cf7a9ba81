/**
 * The cloud consumer with SQS records received from local-aws-sqs, writing Parquet and
 * objectData files to s3rver and audit points to Debian's InfluxDB 1.x; S3 failures from
 * aws-sdk-client-mock.
 */
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { mockClient } from "aws-sdk-client-mock";
import { parquetReadObjects } from "hyparquet";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createS3ObjectStore } from "../../../../core/adapters/aws/s3-object-store.ts";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import {
  cloudDestinationAdapters,
  keyPrefix,
} from "../../../../functions/audit-consumer/cloud-destinations.ts";
import { createAuditConsumer } from "../../../../functions/audit-consumer/consumer.ts";
import { influxEventIdRows } from "../../../helpers/audit-destination-contents.ts";
import { acceptedEvent, objectDataEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { type LocalS3, startS3rver } from "../../../helpers/s3rver.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip: skipInflux, influxd } = influxdForSuite();

let s3: LocalS3;
let sqs: LocalSqs;

beforeAll(async () => {
  [s3, sqs] = await Promise.all([startS3rver("steward-events"), startLocalSqs()]);
});
afterAll(async () => {
  await Promise.all([s3.close(), sqs.close()]);
});

function consumerFor(client: S3Client, bucketPrefix: string) {
  const logger = recordingLogger();
  const config = destinationConfig(["parquet", "json"], "audit-events");
  const writers = selectDestinations(
    config,
    timeseriesConfig(1, 8086),
    cloudDestinationAdapters({ s3: client, bucket: "steward-events", bucketPrefix, logger }),
  ).map((selected) => selected.destination);
  return { consume: createAuditConsumer({ destinations: writers, logger, clock: systemClock }), logger };
}

describe("audit consumer Lambda", () => {
  it("writes the batch to S3 as Parquet and objectData files and reports no failures", async () => {
    const events = [
      acceptedEvent(),
      acceptedEvent({ timestamp: "2026-03-09T00:00:01+00:00" }),
      objectDataEvent({ objectType: "table", measures: [] }),
    ];
    const records = await sqs.roundTrip(events);
    const { consume } = consumerFor(s3.client, "stage-a");

    const response = await consume({ Records: records });

    expect(response).toEqual({ batchItemFailures: [] });
    const parquet = createS3ObjectStore({
      client: s3.client,
      bucket: "steward-events",
      prefix: "stage-a/audit-events/parquet/",
    });
    const keys = await parquet.list("");
    expect(keys.map((key) => key.split("/")[0])).toEqual(["date=2026-03-08", "date=2026-03-09"]);
    const ids: unknown[] = [];
    for (const key of keys) {
      const bytes = (await parquet.get(key))!;
      const rows = await parquetReadObjects({
        file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      });
      ids.push(...rows.map((row) => row.eventId));
    }
    expect(ids.sort()).toEqual(events.map((event) => event.envelope.eventId).sort());
    const json = createS3ObjectStore({
      client: s3.client,
      bucket: "steward-events",
      prefix: "stage-a/audit-events/json/",
    });
    expect(await json.list("")).toHaveLength(1);
  });

  it("fails only the record that is not an audit event", async () => {
    const good = acceptedEvent();
    const records = await sqs.roundTrip([good], ["{not json", JSON.stringify({ hello: "world" })]);
    const { consume, logger } = consumerFor(s3.client, "stage-b");

    const response = await consume({ Records: records });

    const bad = records
      .filter((record) => record.body !== JSON.stringify(good.envelope))
      .map((record) => record.messageId);
    expect(response.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(bad.sort());
    expect(logger.entries.filter((entry) => entry.level === "error")).toHaveLength(2);
  });

  describe("with S3 failing", () => {
    // mockClient patches every S3Client, so it lives only inside this block.
    let s3Mock: ReturnType<typeof mockClient>;
    beforeAll(() => {
      s3Mock = mockClient(S3Client);
    });
    afterEach(() => s3Mock.reset());
    afterAll(() => s3Mock.restore());

    it("fails only the records whose file could not be stored", async () => {
      const onEighth = [acceptedEvent(), acceptedEvent()];
      const onNinth = acceptedEvent({ timestamp: "2026-03-09T10:00:00Z" });
      const records = await sqs.roundTrip([...onEighth, onNinth]);
      s3Mock.on(PutObjectCommand).callsFake((input: { Key: string }) => {
        if (input.Key.includes("date=2026-03-09"))
          throw Object.assign(new Error("SlowDown"), { name: "SlowDown" });
        return {};
      });
      const { consume, logger } = consumerFor(new S3Client({ region: "us-east-1" }), "");

      const response = await consume({ Records: records });

      const ninthRecord = records.find((record) => record.body === JSON.stringify(onNinth.envelope))!;
      expect(response.batchItemFailures).toEqual([{ itemIdentifier: ninthRecord.messageId }]);
      expect(
        logger.entries.some(
          (entry) => entry.level === "error" && String(entry.fields?.error).includes("SlowDown"),
        ),
      ).toBe(true);
    });

    it("fails every record when S3 refuses everything", async () => {
      const records = await sqs.roundTrip([acceptedEvent(), objectDataEvent({ objectType: "x" })]);
      s3Mock.on(PutObjectCommand).rejects(Object.assign(new Error("AccessDenied"), { name: "AccessDenied" }));
      const { consume } = consumerFor(new S3Client({ region: "us-east-1" }), "");

      const response = await consume({ Records: records });

      expect(response.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
        records.map((r) => r.messageId).sort(),
      );
    });
  });
});

/** The consumer writing the timeseriesdb destination into `dbName`, which keeps 7 days. */
function influxConsumerFor(port: number, dbName: string) {
  const logger = recordingLogger();
  const config = timeseriesConfig(1, port);
  const writers = selectDestinations(
    destinationConfig(["timeseriesdb"], "audit-events"),
    {
      ...config,
      v1Config: { ...config.v1Config, dbName, retentionPolicy: { name: "week", duration: "7d" } },
    },
    cloudDestinationAdapters({ s3: s3.client, bucket: "steward-events", bucketPrefix: "", logger }),
  ).map((selected) => selected.destination);
  return { consume: createAuditConsumer({ destinations: writers, logger, clock: systemClock }), logger };
}

const recent = () => new Date(Date.now() - 60_000).toISOString();

describe.skipIf(skipInflux)("audit consumer Lambda writing to InfluxDB", () => {
  it("acknowledges an event the database refuses, logging and counting it, instead of failing it until the dead-letter queue", async () => {
    const old = acceptedEvent({ timestamp: "2025-01-15T12:00:00.000Z" });
    const current = [acceptedEvent({ timestamp: recent() }), acceptedEvent({ timestamp: recent() })];
    const records = await sqs.roundTrip([current[0], old, current[1]] as typeof current);
    const { consume, logger } = influxConsumerFor(influxd.port, "consumer_refusal");

    const response = await consume({ Records: records });
    const again = await consume({ Records: await sqs.roundTrip([old]) });

    expect(response).toEqual({ batchItemFailures: [] });
    expect(again).toEqual({ batchItemFailures: [] });
    expect((await influxEventIdRows(influxd, "consumer_refusal")).sort()).toEqual(
      current.map((event) => event.envelope.eventId).sort(),
    );
    // One ERROR a minute per destination and reason in a function instance; the second at DEBUG.
    const refusals = logger.entries.filter((entry) => entry.message.includes("refused audit events"));
    expect(refusals.map((entry) => [entry.level, entry.fields?.reason, entry.fields?.refused])).toEqual([
      ["error", "beyond_retention", 1],
      ["debug", "beyond_retention", 1],
    ]);
    expect(refusals[0]?.fields).toMatchObject({
      destination: "timeseriesdb",
      eventIds: old.envelope.eventId,
    });
    expect(logger.entries.filter((entry) => entry.message.includes("will be retried"))).toEqual([]);
  });

  it("fails every record while the database cannot be reached: an outage is retried", async () => {
    const records = await sqs.roundTrip([
      acceptedEvent({ timestamp: recent() }),
      acceptedEvent({ timestamp: recent() }),
    ]);
    const { consume, logger } = influxConsumerFor(await freePort(), "consumer_outage");

    const response = await consume({ Records: records });

    expect(response.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(
      records.map((record) => record.messageId).sort(),
    );
    expect(logger.entries.filter((entry) => entry.message.includes("will be retried"))).toHaveLength(1);
  });
});

describe("keyPrefix", () => {
  it.each([
    ["", "audit-events/parquet", "audit-events/parquet/"],
    ["stage", "./audit-events/json/", "stage/audit-events/json/"],
    ["/p/", "/abs/dir", "p/abs/dir/"],
    ["", "", ""],
  ])("joins %j and %j into %j", (bucketPrefix, directory, expected) => {
    expect(keyPrefix(bucketPrefix, directory)).toBe(expected);
  });

  it("refuses a directory that climbs out with ..", () => {
    expect(() => keyPrefix("", "../other")).toThrow(/segment/);
  });
});
