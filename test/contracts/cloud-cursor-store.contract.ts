/**
 * What every CloudCursorStore must do, whichever runtime holds the cursors (files under the local
 * process's data directory, a DynamoDB table for the cloud functions): nothing before the first
 * write, the last write after it, each tenant's input apart from every other, and what was written
 * still there for a store opened again on the same storage (a restart, another instance).
 */
import { describe, expect, it } from "vitest";
import type { CloudCursorStore } from "../../core/ports.ts";

/** Opens a store on one storage: each call of `open` the same storage again, each call of `make` a new one. */
export type CloudCursorStorage = () => Promise<{ open: () => Promise<CloudCursorStore> }>;

export function describeCloudCursorStoreContract(name: string, make: CloudCursorStorage): void {
  describe(`CloudCursorStore contract: ${name}`, () => {
    it("reads nothing before the first write, and the last write after it", async () => {
      const store = await (await make()).open();
      expect(await store.read("sim-a", "reloads")).toBeUndefined();
      await store.write("sim-a", "reloads", 1_796_000_000_000);
      expect(await store.read("sim-a", "reloads")).toBe(1_796_000_000_000);
      await store.write("sim-a", "reloads", 1_796_000_060_000);
      expect(await store.read("sim-a", "reloads")).toBe(1_796_000_060_000);
    });

    it("keeps each tenant's input apart from every other", async () => {
      const store = await (await make()).open();
      await store.write("sim-a", "reloads", 1);
      await store.write("sim-a", "audits", 2);
      await store.write("sim-b", "reloads", 3);
      expect(await store.read("sim-a", "reloads")).toBe(1);
      expect(await store.read("sim-a", "audits")).toBe(2);
      expect(await store.read("sim-b", "reloads")).toBe(3);
      expect(await store.read("sim-b", "audits")).toBeUndefined();
    });

    it("holds what was written for a store opened again on the same storage", async () => {
      const storage = await make();
      await (await storage.open()).write("sim-a", "audits", 1_796_000_000_000);
      expect(await (await storage.open()).read("sim-a", "audits")).toBe(1_796_000_000_000);
    });
  });
}
