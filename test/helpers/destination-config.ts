/** An auditEvents.destination slice for tests, parsed by the real config schema (defaults fill the rest). */
import {
  type AuditDestinationConfig,
  type AuditDestinationType,
  parseConfig,
} from "../../core/config/index.ts";

export function destinationConfig(
  types: AuditDestinationType[],
  root: string,
  enable = true,
): AuditDestinationConfig {
  const parsed = parseConfig({
    Service: {
      auditEvents: {
        enable: true,
        destination: {
          enable,
          type: types.join(","),
          parquet: { exportDirectory: `${root}/parquet` },
          tablefile: { exportDirectory: `${root}/tablefile` },
          json: { objectdata: { enable: true, exportDirectory: `${root}/json` } },
        },
      },
      timeseriesdbConfig: { version: 1, v1Config: { dbName: "steward_audit", auth: { username: "u" } } },
    },
  });
  if (!parsed.ok) throw new Error(`test config invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.config.auditEvents.destination;
}
