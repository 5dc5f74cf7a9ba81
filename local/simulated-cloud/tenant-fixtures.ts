/**
 * The simulated Qlik Cloud tenants' fixed data: each tenant's name, Qlik tenant id, credentials
 * and webhook secret, and the apps, spaces and users its reloads refer to. Two tenants at least,
 * with ids, secrets and apps of their own, so that a test or a first try shows each run reaching
 * Steward under its own tenant. The credentials are throw-away values for loopback only.
 */

export interface SimulatedApp {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly ownerId: string;
  /** Absent for an app in a personal space. */
  readonly spaceId?: string;
  readonly tags: readonly string[];
}

export interface SimulatedUser {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly subject: string;
}

export interface SimulatedSpace {
  readonly id: string;
  readonly name: string;
  readonly type: "shared" | "managed" | "data";
}

export interface TenantFixture {
  /** The name Steward's configuration gives the tenant. */
  readonly name: string;
  /** Qlik's id of the tenant, as events carry it. */
  readonly tenantId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly apiKey: string;
  /** The secret the simulated webhook signs with (32 to 64 characters). */
  readonly webhookSecret: string;
  readonly apps: readonly SimulatedApp[];
  readonly users: readonly SimulatedUser[];
  readonly spaces: readonly SimulatedSpace[];
}

/** Deterministic ids of a tenant's objects: `<prefix><tenant index><number>` padded to `length`. */
const idOf = (prefix: string, index: number, n: number, length: number) =>
  `${prefix}${index}${n}`.padEnd(length, "0");

function fixture(index: number, name: string, tenantId: string): TenantFixture {
  const owner = idOf("usr", index, 1, 32);
  const space = idOf("64db65d5", index, 1, 24);
  return {
    name,
    tenantId,
    clientId: `sim-client-${name}`,
    clientSecret: `sim-client-secret-${name}-0123456789`,
    apiKey: `sim-api-key-${name}-0123456789abcdef`,
    webhookSecret: `sim-webhook-secret-${name}-0123456789abcdef`.slice(0, 48),
    apps: [1, 2, 3].map((n) => ({
      id: `116dbfae-7fb9-4983-8e23-5ccd8c50${index}${n}`.padEnd(36, "0"),
      name: ["Sales dashboard", "Finance", "Operations"][n - 1] as string,
      description: `Simulated app ${n} of ${name}`,
      ownerId: owner,
      ...(n === 3 ? {} : { spaceId: space }),
      tags: n === 1 ? ["critical"] : [],
    })),
    users: [
      { id: owner, name: `Owner of ${name}`, email: `owner@${name}.example.com`, subject: `auth0|${owner}` },
    ],
    spaces: [{ id: space, name: `Shared space of ${name}`, type: "shared" }],
  };
}

/** The tenants the simulator starts, in order (more are made up by number when asked for). */
export function tenantFixtures(count: number): TenantFixture[] {
  const known = [
    fixture(1, "sim-a", "UkeLb6ICti8OA8f3LueRI5kVNtuHc15f"),
    fixture(2, "sim-b", "efSCcpNYuayTysONkUcE3F80zYQ_LV9w"),
  ];
  const out: TenantFixture[] = [];
  for (let i = 0; i < count; i += 1) {
    out.push(known[i] ?? fixture(i + 1, `sim-${i + 1}`, `SimTenant${String(i + 1).padStart(23, "0")}`));
  }
  return out;
}
