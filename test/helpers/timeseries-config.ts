/** A timeseriesdbConfig slice for tests, parsed by the real config schema, pointing at loopback. */
import { parseConfig, type TimeseriesdbConfig } from "../../core/config/index.ts";

export function timeseriesConfig(
  version: 1 | 2 | 3,
  port: number,
  token = "secret-token",
): TimeseriesdbConfig {
  const parsed = parseConfig({
    Service: {
      timeseriesdbConfig: {
        enable: true,
        host: "127.0.0.1",
        port,
        version,
        v1Config: {
          dbName: "steward_audit",
          retentionPolicy: { name: "audit_rp", duration: "30d" },
          auth: { username: "u" },
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
        },
      },
    },
  });
  if (!parsed.ok) throw new Error(`test config invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.config.timeseriesdbConfig;
}
