/**
 * The licence gauges on the scrape endpoint, from the last good reading of each (a run whose
 * reading failed leaves the one before in place): per access type (`license_type` as on the
 * stored points) every count read, as `steward_license_access_<count>` (e.g.
 * `steward_license_access_allocated{license_type="analyzer"}`,
 * `steward_license_access_used_minutes{license_type="analyzer_capacity"}`); the site's server
 * licence's `steward_license_server_days_until_expiry` and `steward_license_server_expired` (0/1).
 * A count not read has no series: no gauge is shown without a value.
 *
 * Two owners feed the same gauges: the site's licence monitor and the Qlik Cloud tenants' licence
 * reading (core/qlik-cloud/tenant-licences.ts). A tenant's access series carry its `tenant` label
 * (`steward_license_access_total{license_type="analyzer_time",tenant="acme-eu"}`); the site's
 * carry none, exactly the series they were before tenants had licences, which Prometheus reads as
 * `tenant=""`, so the dashboards' tenant variable at "All" shows them beside every tenant's. The
 * server licence gauges stay the site's alone: the expiry rules read them as the site's licence.
 * The gauges are declared once per registry, by whichever owner comes first (licenceGaugesOf).
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
  overage: "Units a Qlik Cloud allotment may be used beyond its total (-1: no cap)",
};

export interface LicenceReadings {
  readonly access: readonly AccessLicenceReading[] | undefined;
  readonly server: ServerLicenceReading | undefined;
}

/** The site's readings are shown under this owner: no `tenant` label. */
export const SITE = "";

export interface LicenceGauges {
  /** Shows what `latest` gives under `owner`: SITE, or a tenant's name (access licences only). */
  show(owner: string, latest: () => LicenceReadings): void;
}

const declared = new WeakMap<MetricsRegistry, LicenceGauges>();

/** The licence gauges of `registry`, declared at the first call. */
export function licenceGaugesOf(registry: MetricsRegistry): LicenceGauges {
  const found = declared.get(registry);
  if (found !== undefined) return found;
  const owners = new Map<string, () => LicenceReadings>();
  declareGauges(registry, owners);
  const gauges: LicenceGauges = { show: (owner, latest) => void owners.set(owner, latest) };
  declared.set(registry, gauges);
  return gauges;
}

/** The site's licence monitor's readings on the gauges. */
export function declareLicenceGauges(registry: MetricsRegistry, latest: () => LicenceReadings): void {
  licenceGaugesOf(registry).show(SITE, latest);
}

function declareGauges(registry: MetricsRegistry, owners: ReadonlyMap<string, () => LicenceReadings>): void {
  const site = () => owners.get(SITE)?.() ?? { access: undefined, server: undefined };
  for (const [count, help] of Object.entries(ACCESS_COUNTS)) {
    registry.gauge({
      name: `steward_license_access_${count}`,
      help: `${help}, at the last licence reading`,
      labelNames: ["license_type", "tenant"],
      collect: () =>
        [...owners].flatMap(([owner, latest]) =>
          (latest().access ?? []).flatMap((reading) => {
            const value = reading.counts[count];
            const labels =
              owner === SITE ? { license_type: reading.type } : { license_type: reading.type, tenant: owner };
            return value === undefined
              ? []
              : [{ labels: labels as Record<"license_type" | "tenant", string>, value }];
          }),
        ),
    });
  }
  registry.gauge({
    name: "steward_license_server_days_until_expiry",
    help: "Days until the server licence's expiry day (0 on it, negative after it), at the last licence monitor run",
    labelNames: [],
    collect: () => {
      const days = site().server?.daysUntilExpiry;
      return days === undefined ? [] : [{ labels: {}, value: days }];
    },
  });
  registry.gauge({
    name: "steward_license_server_expired",
    help: "1 when the platform says the server licence has expired, else 0, at the last licence monitor run",
    labelNames: [],
    collect: () => {
      const server = site().server;
      return server === undefined ? [] : [{ labels: {}, value: server.expired ? 1 : 0 }];
    },
  });
}
