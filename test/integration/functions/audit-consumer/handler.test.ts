/**
 * The Lambda entry point as deployed: config from the StewardConfig secret, bucket from the SST
 * link, S3 through AWS_ENDPOINT_URL_S3 (s3rver), records received from local-aws-sqs.
 */
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3ObjectStore } from "../../../../core/adapters/aws/s3-object-store.ts";
import { acceptedEvent, objectDataEvent } from "../../../helpers/audit-events.ts";
import { type LocalS3, startS3rver } from "../../../helpers/s3rver.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";

let s3: LocalS3;
let sqs: LocalSqs;
let handler: (event: SQSEvent) => Promise<SQSBatchResponse>;

beforeAll(async () => {
  [s3, sqs] = await Promise.all([startS3rver("deployed-bucket"), startLocalSqs()]);
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  process.env.AWS_S3_FORCE_PATH_STYLE = "true";
  process.env.SST_RESOURCE_AuditEventsBucket = JSON.stringify({
    name: "deployed-bucket",
    type: "sst.aws.Bucket",
  });
  process.env.SST_RESOURCE_StewardConfig = JSON.stringify({
    type: "sst.sst.Secret",
    value: [
      "Service:",
      "  logLevel: error",
      "  cloud:",
      "    enable: true",
      "    region: us-east-1",
      "    bucketPrefix: prod",
      "  auditEvents:",
      "    enable: true",
      "    destination:",
      "      enable: true",
      "      type: parquet,tablefile,json",
      "      json:",
      "        objectdata:",
      "          enable: true",
    ].join("\n"),
  });
  ({ handler } = await import("../../../../functions/audit-consumer/handler.ts"));
});

afterAll(async () => {
  await Promise.all([s3.close(), sqs.close()]);
});

describe("audit consumer handler", () => {
  it("writes Parquet, QVD and objectData files under the bucket prefix and default export directories", async () => {
    const records = await sqs.roundTrip([acceptedEvent(), objectDataEvent({ objectType: "table" })]);

    const response = await handler({ Records: records });

    expect(response).toEqual({ batchItemFailures: [] });
    const store = createS3ObjectStore({ client: s3.client, bucket: "deployed-bucket", prefix: "prod/" });
    const keys = await store.list("");
    expect(keys.filter((key) => key.startsWith("audit-events/parquet/date=2026-03-08/"))).toHaveLength(1);
    expect(keys.filter((key) => key.startsWith("audit-events/tablefile/date=2026-03-08/"))).toHaveLength(1);
    expect(keys.filter((key) => key.startsWith("audit-events/json/"))).toHaveLength(1);
  });
});
