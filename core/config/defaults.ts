/**
 * The embedded default configuration: what `npm start` runs without a file. It needs no other
 * server: ingest on 127.0.0.1:8181, REST on 127.0.0.1:8081, audit events written as Parquet and
 * JSON under ./data/, key-value store and schedules under ./data/, and the status page on
 * 127.0.0.1:3100 (secrets masked), so that a newcomer has something to look at; the agent's parts
 * stay off.
 */
import { parseConfig } from "./parse.ts";
import type { Config } from "./schema/config.ts";

/** Only what differs from the schema defaults; everything else is defaulted by the schema. */
export const EMBEDDED_CONFIG = {
  Service: {
    fileLogging: false,
    auditEvents: {
      enable: true,
      host: "127.0.0.1",
      port: 8181,
      destination: {
        enable: true,
        type: "parquet,json",
        parquet: { exportDirectory: "./data/audit-events/parquet" },
        tablefile: { exportDirectory: "./data/audit-events/tablefile" },
        json: { objectdata: { enable: true, exportDirectory: "./data/audit-events/json" } },
      },
    },
    restServer: { enable: true, host: "127.0.0.1", port: 8081 },
    keyValueStore: { enable: true, storeFile: "./data/key-values.json" },
    scheduler: { enable: true, storeFile: "./data/schedules.yaml" },
    configVisualisation: { enable: true, host: "127.0.0.1", port: 3100, obfuscate: true },
  },
} as const;

/** A fresh copy of the embedded default configuration, fully typed and defaulted. */
export function defaultConfig(): Config {
  const result = parseConfig(structuredClone(EMBEDDED_CONFIG), {});
  if (!result.ok) {
    // Only a programming error can get here; the tests parse the embedded config.
    throw new Error(
      `embedded default config is invalid: ${result.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
    );
  }
  return result.config;
}
