/**
 * The destination adapters of the cloud consumer: exported files go to the linked S3 bucket,
 * each destination's `exportDirectory` becoming a key prefix under `cloud.bucketPrefix`.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { createS3ObjectStore } from "../../core/adapters/aws/s3-object-store.ts";
import { createTimeseriesClient } from "../../core/adapters/influx/create-timeseries-client.ts";
import { auditParquetEncoder } from "../../core/adapters/parquet/audit-parquet-encoder.ts";
import { type DestinationAdapters, validateObjectKey } from "../../core/destinations/index.ts";
import type { Logger } from "../../core/ports.ts";

export interface CloudDestinationOptions {
  s3: S3Client;
  bucket: string;
  /** `cloud.bucketPrefix`; "" for the bucket root. */
  bucketPrefix: string;
  logger: Logger;
}

export function cloudDestinationAdapters(options: CloudDestinationOptions): DestinationAdapters {
  return {
    objectStoreFor: (exportDirectory) =>
      createS3ObjectStore({
        client: options.s3,
        bucket: options.bucket,
        prefix: keyPrefix(options.bucketPrefix, exportDirectory),
      }),
    parquetEncoder: auditParquetEncoder,
    timeseriesClient: createTimeseriesClient,
    logger: options.logger,
  };
}

/** `audit-events/parquet`, `./x`, `/x/` → a `/`-terminated key prefix; `..` is refused. */
export function keyPrefix(bucketPrefix: string, exportDirectory: string): string {
  const parts = [bucketPrefix, exportDirectory]
    .flatMap((part) => part.split("/"))
    .filter((segment) => segment !== "" && segment !== ".");
  if (parts.length === 0) return "";
  const joined = parts.join("/");
  validateObjectKey(joined);
  return `${joined}/`;
}
