/**
 * The set-up the bad-environment tests share: `steward start` in a working directory of its own
 * with the durable queue, the JSON (objectData) destination writing to ./out/json (and, when asked,
 * a Parquet destination beside it), the REST API, the config UI (its `GET /status`) and the
 * container health check, each on a free port; and reading the status document and the health
 * check back.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

export interface StewardPorts {
  ingest: number;
  rest: number;
  ui: number;
  health: number;
}

export async function freeStewardPorts(): Promise<StewardPorts> {
  return { ingest: await freePort(), rest: await freePort(), ui: await freePort(), health: await freePort() };
}

export interface JsonDestinationConfig {
  ports: StewardPorts;
  /** `auditEvents.queue.directory`, relative to the working directory. */
  queueDirectory: string;
  /** `auditEvents.rateLimit.maxPerMinute` (the default otherwise). */
  maxPerMinute?: number;
  /** `auditEvents.queue.maxDiskBytes` (the default otherwise). */
  maxDiskBytes?: number;
  /** `keyValueStore.storeFile` and `scheduler.storeFile` (their defaults under ./data otherwise). */
  storeFiles?: { keyValues: string; schedules: string };
  /** A Parquet destination beside the JSON files (`type: json,parquet`); none otherwise. */
  parquet?: { exportDirectory: string; writeFrequency: number };
  /** `auditEvents.destination.type` instead of json (and parquet when configured), e.g. `"parquet"`. */
  type?: string;
  /** `auditEvents.destination.enable` (true otherwise). */
  enable?: boolean;
}

/** Writes `steward.yaml` into `directory`. */
export function writeJsonDestinationConfig(directory: string, config: JsonDestinationConfig): void {
  const { ports } = config;
  const rateLimit =
    config.maxPerMinute === undefined ? "" : `    rateLimit:\n      maxPerMinute: ${config.maxPerMinute}\n`;
  const maxDiskBytes =
    config.maxDiskBytes === undefined ? "" : `      maxDiskBytes: ${config.maxDiskBytes}\n`;
  const stores =
    config.storeFiles === undefined
      ? ""
      : `  keyValueStore:
    storeFile: ${config.storeFiles.keyValues}
  scheduler:
    storeFile: ${config.storeFiles.schedules}
`;
  const parquet =
    config.parquet === undefined
      ? ""
      : `      parquet:
        exportDirectory: ${config.parquet.exportDirectory}
        writeFrequency: ${config.parquet.writeFrequency}
`;
  writeFileSync(
    join(directory, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${ports.ingest}
${rateLimit}    queue:
      directory: ${config.queueDirectory}
${maxDiskBytes}    destination:
      enable: ${config.enable ?? true}
      type: ${config.type ?? (config.parquet === undefined ? "json" : "json,parquet")}
${parquet}      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  restServer:
    port: ${ports.rest}
${stores}  configVisualisation:
    enable: true
    port: ${ports.ui}
  containerHealthCheck:
    enable: true
    port: ${ports.health}
`,
  );
}

/** The status document of the config UI on `port`. */
export async function stewardStatus(port: number): Promise<Record<string, unknown>> {
  return (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as Record<string, unknown>;
}

/** The container health check on `port`: its status code and, when unhealthy, why. */
export async function stewardHealth(port: number): Promise<{ status: number; body: { reason?: string } }> {
  const response = await fetch(`http://127.0.0.1:${port}/health`);
  return { status: response.status, body: (await response.json()) as { reason?: string } };
}
