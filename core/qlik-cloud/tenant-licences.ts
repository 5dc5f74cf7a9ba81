/**
 * The licences of the Qlik Cloud tenants whose `licences.enable` is on, read through each tenant's
 * own client (`GET /api/v1/licenses/overview` and `/status`, core/licences/cloud-licences.ts) when
 * the runtime says so: the local process on the licence monitor's schedule, the polling function
 * when a tenant's reading is due. Each reading becomes:
 * - `qlik_sense_license` points, one per allotment, and a `qlik_sense_server_license` point of the
 *   licence's validity, tagged `tenant` and with the tenant's static tags, as the site's licence
 *   points are written (core/licences/license-points.ts), when a database is given;
 * - the `steward_license_access_*{tenant}` gauges, when gauges are given (the local process);
 * - the tenant's `licences` on the status board: the allotments, the validity, when, the last error.
 * Tenants are read side by side, so one that is slow or failing never holds up another, and the
 * reload inputs have timers of their own. A reading that fails (an answer other than 2xx, which
 * the client counts on the tenant's API errors, a time-out, a 404 "License not found", an answer
 * that is no overview) leaves the last good reading in place on the gauges and the page, and is
 * logged at WARN once per outage: the next readings that fail too are logged at VERBOSE, and the
 * first that succeeds again at INFO.
 */
import {
  type AccessLicenceReading,
  accessLicencePoints,
  type LicenceGauges,
  readCloudLicences,
  type ServerLicenceReading,
  serverLicencePoint,
} from "../licences/index.ts";
import type { Clock, Logger, TenantClient } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { Point } from "../shared/line-protocol.ts";

export interface LicensedTenant {
  readonly name: string;
  readonly client: TenantClient;
  /** `qlikCloud.tenants[].tags.static`. */
  readonly tags: readonly { readonly name: string; readonly value: string }[];
}

export interface TenantLicencesDeps {
  /** The tenants whose `licences.enable` is on. */
  readonly tenants: readonly LicensedTenant[];
  /** Where the points go; undefined: the time-series database is off. Rejects when not written. */
  readonly write?: ((points: Point[]) => Promise<void>) | undefined;
  readonly gauges?: LicenceGauges | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface TenantLicenceStatus {
  /** When the last good reading was made. */
  readonly readAt?: string;
  readonly allotments?: readonly AccessLicenceReading[];
  readonly licence?: ServerLicenceReading & { readonly status: string | undefined };
  readonly lastError?: { readonly at: string; readonly message: string };
  /** Readings made and failed since start. */
  readonly reads: number;
  readonly failures: number;
}

export interface TenantLicences {
  /** The tenants read. */
  readonly names: readonly string[];
  /** Reads one tenant's licences; true when they were read (written or not). Never rejects. */
  read(tenant: string, signal: AbortSignal): Promise<boolean>;
  /** Reads every tenant's, side by side. */
  readAll(signal: AbortSignal): Promise<void>;
  status(tenant: string): TenantLicenceStatus;
}

export function createTenantLicences(deps: TenantLicencesDeps): TenantLicences {
  const { clock, logger } = deps;
  const byName = new Map(deps.tenants.map((tenant) => [tenant.name, tenant]));
  const states = new Map<string, TenantLicenceStatus>(
    deps.tenants.map((tenant) => [tenant.name, { reads: 0, failures: 0 }]),
  );
  const failing = new Set<string>();
  const state = (name: string): TenantLicenceStatus => states.get(name) ?? { reads: 0, failures: 0 };
  for (const tenant of deps.tenants)
    deps.gauges?.show(tenant.name, () => ({ access: state(tenant.name).allotments, server: undefined }));

  function failed(tenant: string, error: unknown, atMs: number): void {
    const message = describeError(error);
    const before = state(tenant);
    states.set(tenant, {
      ...before,
      failures: before.failures + 1,
      lastError: { at: new Date(atMs).toISOString(), message },
    });
    const fields = { tenant, error: message };
    if (failing.has(tenant)) {
      logger.verbose("A Qlik Cloud tenant's licences could still not be read", fields);
      return;
    }
    failing.add(tenant);
    logger.warn("A Qlik Cloud tenant's licences could not be read; the last reading stays", fields);
  }

  async function writePoints(tenant: LicensedTenant, points: Point[]): Promise<void> {
    if (deps.write === undefined) return;
    try {
      await deps.write(points);
    } catch (error) {
      logger.warn("Qlik Cloud licence points not written", {
        tenant: tenant.name,
        problem: describeError(error),
      });
    }
  }

  async function read(name: string, signal: AbortSignal): Promise<boolean> {
    const tenant = byName.get(name);
    if (tenant === undefined) return false;
    const atMs = clock.now();
    let reading: ReturnType<typeof readCloudLicences>;
    try {
      const [overview, status] = await Promise.all([
        tenant.client.json({ path: "/api/v1/licenses/overview", signal }),
        tenant.client.json({ path: "/api/v1/licenses/status", signal }),
      ]);
      reading = readCloudLicences(overview, status, atMs);
    } catch (error) {
      // Given up at stop: not an outage of the tenant's.
      if (!signal.aborted) failed(name, error, atMs);
      return false;
    }
    if (failing.delete(name)) logger.info("A Qlik Cloud tenant's licences are read again", { tenant: name });
    const before = state(name);
    states.set(name, {
      ...before,
      readAt: new Date(atMs).toISOString(),
      allotments: reading.allotments,
      licence: { ...reading.licence, status: reading.status },
      reads: before.reads + 1,
    });
    const tags = Object.fromEntries(tenant.tags.map((tag) => [tag.name, tag.value]));
    await writePoints(tenant, [
      ...accessLicencePoints(reading.allotments, tags, atMs, name),
      serverLicencePoint(reading.licence, tags, atMs, name),
    ]);
    return true;
  }

  return {
    names: deps.tenants.map((tenant) => tenant.name),
    read,
    async readAll(signal) {
      await Promise.all(deps.tenants.map((tenant) => read(tenant.name, signal)));
    },
    status: state,
  };
}
