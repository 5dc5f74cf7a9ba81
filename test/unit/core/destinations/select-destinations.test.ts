import { describe, expect, it } from "vitest";
import { auditQvdEncoder } from "../../../../core/destinations/qvd/audit-qvd-encoder.ts";
import {
  type DestinationAdapters,
  OBJECT_DATA_BATCH,
  selectDestinations,
} from "../../../../core/destinations/select-destinations.ts";
import type { ObjectStore } from "../../../../core/ports.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

function adapters() {
  const calls = { stores: [] as string[], series: 0 };
  const store: ObjectStore = { put: async () => {}, get: async () => undefined, list: async () => [] };
  const value: DestinationAdapters = {
    objectStoreFor: (directory) => {
      calls.stores.push(directory);
      return store;
    },
    parquetEncoder: auditQvdEncoder,
    timeseriesClient: () => {
      calls.series += 1;
      return { ensureDatabase: async () => {}, write: async () => {}, writeLines: async () => {} };
    },
    logger: recordingLogger(),
  };
  return { calls, value };
}

describe("selectDestinations", () => {
  it("builds one writer per listed type, with its batching settings", () => {
    const { calls, value } = adapters();
    const config = destinationConfig(["parquet", "json", "timeseriesdb", "tablefile"], "/x");

    const selected = selectDestinations(config, timeseriesConfig(1, 8086), value);

    expect(selected.map((s) => s.destination.name)).toEqual(["parquet", "json", "timeseriesdb", "tablefile"]);
    expect(selected.map((s) => s.batching)).toEqual([
      { maxBatchSize: 1000, writeFrequency: 20_000 },
      { maxBatchSize: OBJECT_DATA_BATCH, writeFrequency: 0 },
      { maxBatchSize: 1000, writeFrequency: 20_000 },
      { maxBatchSize: 1000, writeFrequency: 20_000 },
    ]);
    expect(calls.stores).toEqual(["/x/parquet", "/x/json", "/x/tablefile"]);
    expect(calls.series).toBe(1);
  });

  it("selects nothing when destinations are disabled", () => {
    const { calls, value } = adapters();

    const selected = selectDestinations(
      destinationConfig(["parquet", "timeseriesdb"], "/x", false),
      timeseriesConfig(1, 8086),
      value,
    );

    expect(selected).toEqual([]);
    expect(calls.series).toBe(0);
  });

  it("leaves json out unless objectdata is enabled, and never builds an unselected time-series writer", () => {
    const { calls, value } = adapters();
    const config = destinationConfig(["json", "parquet"], "/x");
    const noObjectData = { ...config, json: { objectdata: { ...config.json.objectdata, enable: false } } };

    const selected = selectDestinations(noObjectData, timeseriesConfig(1, 8086), value);

    expect(selected.map((s) => s.destination.name)).toEqual(["parquet"]);
    expect(calls.series).toBe(0);
  });
});
