/** A complete auditEvents.destination slice for tests, with the contract's defaults. */
import type { AuditDestinationConfig, DestinationType } from "../../core/destinations/destination-config.ts";

export function destinationConfig(
  types: DestinationType[],
  root: string,
  enable = true,
): AuditDestinationConfig {
  return {
    enable,
    type: types,
    timeseriesdb: {
      maxBatchSize: 1000,
      writeFrequency: 20_000,
      measurementName: "audit_event",
      staticTags: [],
    },
    parquet: {
      maxBatchSize: 1000,
      writeFrequency: 20_000,
      exportDirectory: `${root}/parquet`,
      staticTags: [],
    },
    tablefile: {
      maxBatchSize: 1000,
      writeFrequency: 20_000,
      exportDirectory: `${root}/tablefile`,
      staticTags: [],
    },
    json: { objectdata: { enable: true, exportDirectory: `${root}/json`, staticTags: [] } },
  };
}
