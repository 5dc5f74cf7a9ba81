/**
 * The adapters the local runtime gives the audit destinations: export directories on disk
 * (relative ones resolved against the working directory), the Parquet encoder, the time-series
 * client for the configured InfluxDB version.
 */
import { resolve } from "node:path";
import { createTimeseriesClient } from "../../core/adapters/influx/create-timeseries-client.ts";
import { createDirectoryObjectStore } from "../../core/adapters/local/directory-object-store.ts";
import { auditParquetEncoder } from "../../core/adapters/parquet/audit-parquet-encoder.ts";
import type { DestinationAdapters } from "../../core/destinations/index.ts";
import type { Logger } from "../../core/ports.ts";

export function localDestinationAdapters(options: { cwd: string; logger: Logger }): DestinationAdapters {
  const { cwd, logger } = options;
  return {
    objectStoreFor: (directory) => createDirectoryObjectStore(resolve(cwd, directory), { logger }),
    parquetEncoder: auditParquetEncoder,
    timeseriesClient: (config) => createTimeseriesClient(config, { cwd }),
    logger,
  };
}
