/**
 * The config slices the destinations read, with exactly the shapes of the common Config API
 * (`Config["auditEvents"]["destination"]`, `Config["timeseriesdbConfig"]`,
 * `Config["auditEvents"]["queue"]["queueMetrics"]["timeseriesdb"]`). Declared structurally here
 * so that the parsed Config is assignable to them; wiring passes the slices down.
 */
import type { StaticTag } from "../audit/static-tags.ts";

export type DestinationType = "timeseriesdb" | "parquet" | "tablefile" | "json";

export interface FileDestinationConfig {
  maxBatchSize: number;
  writeFrequency: number;
  exportDirectory: string;
  staticTags: readonly StaticTag[];
}

export interface AuditDestinationConfig {
  enable: boolean;
  type: readonly DestinationType[];
  timeseriesdb: {
    maxBatchSize: number;
    writeFrequency: number;
    measurementName: string;
    staticTags: readonly StaticTag[];
  };
  parquet: FileDestinationConfig;
  tablefile: FileDestinationConfig;
  json: { objectdata: { enable: boolean; exportDirectory: string; staticTags: readonly StaticTag[] } };
}

export interface TimeseriesDbConfig {
  enable: boolean;
  host: string;
  port: number;
  version: 1 | 2 | 3;
  maxBatchSize: number;
  v1Config: {
    auth: { enable: boolean; username: string; password: string };
    dbName: string;
    retentionPolicy: { name: string; duration: string };
  };
  v2Config: { org: string; bucket: string; description: string; token: string; retentionDuration: string };
  v3Config: {
    database: string;
    description: string;
    token: string;
    retentionDuration: string;
    writeTimeout: number;
    queryTimeout: number;
  };
}

export interface QueueMetricsConfig {
  enable: boolean;
  writeFrequency: number;
  measurementName: string;
  tags: readonly StaticTag[];
}
