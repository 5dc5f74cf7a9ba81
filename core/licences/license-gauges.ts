/**
 * The licence monitor's gauges on the scrape endpoint, from the last good reading of each (a run
 * whose reading failed leaves the one before in place): per access type
 * (`license_type` as on the stored points) every count the platform gave, as
 * `steward_license_access_<count>` (e.g. `steward_license_access_allocated{license_type="analyzer"}`,
 * `steward_license_access_used_minutes{license_type="analyzer_capacity"}`); the server licence's
 * `steward_license_server_days_until_expiry` and `steward_license_server_expired` (0/1). A count
 * the platform did not give has no series: no gauge is shown without a value.
 */
import type { MetricsRegistry } from "../ports.ts";
import type { AccessLicenceReading } from "./access-licences.ts";
import type { ServerLicenceReading } from "./server-licence.ts";

/** Every count an access type can have (access-licences.ts), with its gauge's help. */
const ACCESS_COUNTS: Readonly<Record<string, string>> = {
  allocated: "Access licences of the type allocated to users",
  available: "Access licences of the type still available",
  excess: "Access licences of the type allocated beyond the licence",
  quarantined: "Access licences of the type in quarantine",
  total: "Access licences of the type the licence grants",
  used: "Access licences of the type in use",
  allocated_minutes: "Analyzer capacity minutes allocated",
  unavailable_minutes: "Analyzer capacity minutes unavailable",
  used_minutes: "Analyzer capacity minutes used",
  allocated_tokens: "Tokens allocated to the access type",
  unavailable_tokens: "Tokens of the access type unavailable",
  quarantined_tokens: "Tokens of the access type in quarantine",
  used_tokens: "Tokens of the access type in use",
  token_cost: "Tokens one access of the type costs",
  available_tokens: "Tokens not yet allocated",
  total_tokens: "Tokens the licence grants",
};

export interface LicenceReadings {
  readonly access: readonly AccessLicenceReading[] | undefined;
  readonly server: ServerLicenceReading | undefined;
}

export function declareLicenceGauges(registry: MetricsRegistry, latest: () => LicenceReadings): void {
  for (const [count, help] of Object.entries(ACCESS_COUNTS)) {
    registry.gauge({
      name: `steward_license_access_${count}`,
      help: `${help}, at the last licence monitor run`,
      labelNames: ["license_type"],
      collect: () =>
        (latest().access ?? []).flatMap((reading) => {
          const value = reading.counts[count];
          return value === undefined ? [] : [{ labels: { license_type: reading.type }, value }];
        }),
    });
  }
  registry.gauge({
    name: "steward_license_server_days_until_expiry",
    help: "Days until the server licence's expiry day (0 on it, negative after it), at the last licence monitor run",
    labelNames: [],
    collect: () => {
      const days = latest().server?.daysUntilExpiry;
      return days === undefined ? [] : [{ labels: {}, value: days }];
    },
  });
  registry.gauge({
    name: "steward_license_server_expired",
    help: "1 when the platform says the server licence has expired, else 0, at the last licence monitor run",
    labelNames: [],
    collect: () => {
      const server = latest().server;
      return server === undefined ? [] : [{ labels: {}, value: server.expired ? 1 : 0 }];
    },
  });
}
