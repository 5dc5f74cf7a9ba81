/**
 * The config the audit pipeline's load tests share (crash survival, destination outages):
 * `steward start` with the durable queue and a rate limit no load reaches, the destinations of
 * `type` among Parquet (./out/parquet), table files (./out/tablefile), objectData JSON files
 * (./out/json) and InfluxDB 1.x on loopback, the REST API on a port of its own and, when asked,
 * the config UI (for `GET /status`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface AuditLoadConfig {
  ports: { ingest: number; rest: number };
  /** `auditEvents.destination.type`, e.g. `"timeseriesdb,json"`. */
  type: string;
  /** The InfluxDB 1.x server the `timeseriesdb` destination writes to. */
  influx: { port: number; database: string };
  /** `auditEvents.queue.maxDiskBytes` (the default otherwise). */
  maxDiskBytes?: number;
  /** `auditEvents.queue.durable` (the default, true, otherwise). */
  durable?: boolean;
  /** `auditEvents.destination.timeseriesdb.maxBatchSize` (the default otherwise). */
  timeseriesdbBatchSize?: number;
  /** `auditEvents.destination.parquet.writeFrequency` (10 minutes otherwise: written at shutdown). */
  parquetWriteFrequency?: number;
  /** The config UI's port, for `GET /status` (off otherwise). */
  ui?: number;
}

/** Writes `steward.yaml` into `directory`. */
export function writeAuditLoadConfig(directory: string, config: AuditLoadConfig): void {
  const queueEntries = [
    ...(config.maxDiskBytes === undefined ? [] : [`      maxDiskBytes: ${config.maxDiskBytes}\n`]),
    ...(config.durable === undefined ? [] : [`      durable: ${config.durable}\n`]),
  ];
  const queue = queueEntries.length === 0 ? "" : `    queue:\n${queueEntries.join("")}`;
  const timeseriesdbBatch =
    config.timeseriesdbBatchSize === undefined
      ? ""
      : `        maxBatchSize: ${config.timeseriesdbBatchSize}\n`;
  const ui =
    config.ui === undefined ? "" : `  configVisualisation:\n    enable: true\n    port: ${config.ui}\n`;
  writeFileSync(
    join(directory, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${config.ports.ingest}
    rateLimit:
      maxPerMinute: 10000000
${queue}    destination:
      enable: true
      type: ${config.type}
      parquet:
        exportDirectory: ./out/parquet
        writeFrequency: ${config.parquetWriteFrequency ?? 600000}
        maxBatchSize: 10000
      tablefile:
        exportDirectory: ./out/tablefile
        writeFrequency: 300
      timeseriesdb:
        writeFrequency: 500
${timeseriesdbBatch}        measurementName: audit_event
      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  timeseriesdbConfig:
    enable: false
    version: 1
    host: 127.0.0.1
    port: ${config.influx.port}
    v1Config:
      dbName: ${config.influx.database}
      retentionPolicy:
        name: audit_rp
        duration: 30d
  restServer:
    port: ${config.ports.rest}
${ui}`,
  );
}
