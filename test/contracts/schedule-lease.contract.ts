/** The ScheduleLease contract: every adapter runs this one suite (see schedule-lease.test.ts). */
import { describe, expect, it } from "vitest";
import type { ScheduleLease } from "../../core/ports.ts";

/** A fresh shared backing per call; the returned function gives each owner its lease on it. */
export type ScheduleLeaseFactory = () => Promise<(owner: string) => ScheduleLease>;

const ID = "0b6d1f0e-4c5a-4d7e-9a1b-2c3d4e5f6a7b";
const OTHER_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const T1 = Date.UTC(2026, 0, 1, 2, 30);
const T2 = T1 + 60_000;

export function describeScheduleLeaseContract(name: string, factory: ScheduleLeaseFactory): void {
  describe(`ScheduleLease contract: ${name}`, () => {
    it("grants an occurrence to its first claimant only", async () => {
      const leaseOf = await factory();
      expect(await leaseOf("agent-a").claim(ID, T1)).toBe(true);
      expect(await leaseOf("agent-b").claim(ID, T1)).toBe(false);
    });

    it("grants a claimant its own occurrence again (a retried claim)", async () => {
      const leaseOf = await factory();
      const a = leaseOf("agent-a");
      expect(await a.claim(ID, T1)).toBe(true);
      expect(await a.claim(ID, T1)).toBe(true);
    });

    it("grants each later occurrence to whoever claims it first", async () => {
      const leaseOf = await factory();
      const [a, b] = [leaseOf("agent-a"), leaseOf("agent-b")];
      expect(await a.claim(ID, T1)).toBe(true);
      expect(await b.claim(ID, T2)).toBe(true);
      expect(await a.claim(ID, T2)).toBe(false);
    });

    it("refuses an occurrence older than one already claimed", async () => {
      const leaseOf = await factory();
      expect(await leaseOf("agent-a").claim(ID, T2)).toBe(true);
      expect(await leaseOf("agent-b").claim(ID, T1)).toBe(false);
    });

    it("keeps the schedules apart", async () => {
      const leaseOf = await factory();
      expect(await leaseOf("agent-a").claim(ID, T1)).toBe(true);
      expect(await leaseOf("agent-b").claim(OTHER_ID, T1)).toBe(true);
    });

    it("grants exactly one of many simultaneous claims", async () => {
      const leaseOf = await factory();
      const owners = Array.from({ length: 8 }, (_, i) => leaseOf(`agent-${i}`));
      const granted = await Promise.all(owners.map((lease) => lease.claim(ID, T1)));
      expect(granted.filter(Boolean)).toHaveLength(1);
    });
  });
}
