/**
 * Builds the destinations named in `auditEvents.destination.type`, once, at wiring time: none when
 * `destination.enable` is false (a disabled destination does nothing), json only when
 * `json.objectdata.enable`. Runtime-specific pieces (object stores, the Parquet encoder, the
 * InfluxDB adapter) come in through `DestinationAdapters`.
 */

import type { AuditDestinationConfig, AuditDestinationType, TimeseriesdbConfig } from "../config/index.ts";
import type { AuditDestination, Logger, ObjectStore, TableFileEncoder, TimeseriesClient } from "../ports.ts";
import type { BatchingOptions } from "./batcher.ts";
import { createObjectDataDestination } from "./objectdata-destination.ts";
import { auditQvdEncoder } from "./qvd/audit-qvd-encoder.ts";
import { createTableFileDestination } from "./table-file-destination.ts";
import { createTimeseriesDestination } from "./timeseries-destination.ts";

export interface DestinationAdapters {
  /** The store rooted at an export directory: locally that directory, in the cloud a bucket prefix. */
  objectStoreFor(exportDirectory: string): ObjectStore;
  parquetEncoder: TableFileEncoder;
  /** Called only when timeseriesdb is selected (its connection settings are then required). */
  timeseriesClient(config: TimeseriesdbConfig): TimeseriesClient;
  logger: Logger;
}

export interface SelectedDestination {
  destination: AuditDestination;
  batching: BatchingOptions;
}

/** Most events one json write takes: those that arrived while the previous write ran. */
export const OBJECT_DATA_BATCH = 256;

type Builder = (
  destination: AuditDestinationConfig,
  timeseriesdb: TimeseriesdbConfig,
  adapters: DestinationAdapters,
) => SelectedDestination;

const BUILDERS: Record<AuditDestinationType, Builder> = {
  timeseriesdb: ({ timeseriesdb: settings }, connection, adapters) => ({
    destination: createTimeseriesDestination({
      series: adapters.timeseriesClient(connection),
      maxBatchSize: connection.maxBatchSize,
      measurementName: settings.measurementName,
      staticTags: settings.staticTags,
      logger: adapters.logger.child("audit-timeseriesdb"),
    }),
    batching: { maxBatchSize: settings.maxBatchSize, writeFrequency: settings.writeFrequency },
  }),
  parquet: ({ parquet }, _connection, adapters) => ({
    destination: createTableFileDestination({
      name: "parquet",
      store: adapters.objectStoreFor(parquet.exportDirectory),
      encoder: adapters.parquetEncoder,
      staticTags: parquet.staticTags,
    }),
    batching: { maxBatchSize: parquet.maxBatchSize, writeFrequency: parquet.writeFrequency },
  }),
  tablefile: ({ tablefile }, _connection, adapters) => ({
    destination: createTableFileDestination({
      name: "tablefile",
      store: adapters.objectStoreFor(tablefile.exportDirectory),
      encoder: auditQvdEncoder,
      staticTags: tablefile.staticTags,
    }),
    batching: { maxBatchSize: tablefile.maxBatchSize, writeFrequency: tablefile.writeFrequency },
  }),
  // objectData files are written per event, immediately: no batch size or write frequency
  // applies. Every event is written as soon as the previous write is done; the events that
  // arrived meanwhile go together (their files written side by side).
  json: ({ json }, _connection, adapters) => ({
    destination: createObjectDataDestination({
      store: adapters.objectStoreFor(json.objectdata.exportDirectory),
      staticTags: json.objectdata.staticTags,
      logger: adapters.logger.child("audit-json"),
    }),
    batching: { maxBatchSize: OBJECT_DATA_BATCH, writeFrequency: 0 },
  }),
};

/**
 * The destinations selected, by type (each destination is named after its type), without building
 * them: what the durable queue needs to know before anything starts.
 */
export function selectedDestinationTypes(destination: AuditDestinationConfig): AuditDestinationType[] {
  if (!destination.enable) return [];
  return [...new Set(destination.type)].filter(
    (type) => type !== "json" || destination.json.objectdata.enable,
  );
}

export function selectDestinations(
  destination: AuditDestinationConfig,
  timeseriesdb: TimeseriesdbConfig,
  adapters: DestinationAdapters,
): SelectedDestination[] {
  return selectedDestinationTypes(destination).map((type) =>
    BUILDERS[type](destination, timeseriesdb, adapters),
  );
}
