/**
 * The simulated Qlik Cloud of `steward simulate-qlik-cloud` and of the tests: one simulated tenant
 * per fixture (two by default), each on a port of its own, as each real tenant has a host of its
 * own. Stopping stops them all.
 */
import { type SimulatedTenant, startSimulatedTenant } from "./simulated-tenant.ts";
import { tenantFixtures } from "./tenant-fixtures.ts";

export interface SimulatedCloud {
  readonly tenants: readonly SimulatedTenant[];
  stop(): Promise<void>;
}

export interface SimulatedCloudOptions {
  /** How many tenants (default 2). */
  readonly tenants?: number;
  readonly host?: string;
  /** First port: tenant i listens on `port + i`; 0 (default): free ports. */
  readonly port?: number;
  readonly now?: () => number;
}

export async function startSimulatedCloud(options: SimulatedCloudOptions = {}): Promise<SimulatedCloud> {
  const host = options.host ?? "127.0.0.1";
  const first = options.port ?? 0;
  const tenants: SimulatedTenant[] = [];
  const stop = async () => {
    await Promise.all(tenants.map((tenant) => tenant.stop()));
  };
  try {
    for (const [i, fixture] of tenantFixtures(options.tenants ?? 2).entries()) {
      tenants.push(
        await startSimulatedTenant({
          fixture,
          host,
          port: first === 0 ? 0 : first + i,
          ...(options.now === undefined ? {} : { now: options.now }),
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { tenants, stop };
}
