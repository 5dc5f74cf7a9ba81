/** A complete timeseriesdbConfig slice for tests, pointing at a loopback server. */
import type { TimeseriesDbConfig } from "../../core/destinations/destination-config.ts";

export function timeseriesConfig(
  version: 1 | 2 | 3,
  port: number,
  token = "secret-token",
): TimeseriesDbConfig {
  return {
    enable: true,
    host: "127.0.0.1",
    port,
    version,
    maxBatchSize: 1000,
    v1Config: {
      auth: { enable: false, username: "", password: "" },
      dbName: "steward_audit",
      retentionPolicy: { name: "audit_rp", duration: "30d" },
    },
    v2Config: {
      org: "acme",
      bucket: "steward_audit",
      description: "Steward audit events",
      token,
      retentionDuration: "30d",
    },
    v3Config: {
      database: "steward_audit",
      description: "Steward audit events",
      token,
      retentionDuration: "30d",
      writeTimeout: 10_000,
      queryTimeout: 60_000,
    },
  };
}
