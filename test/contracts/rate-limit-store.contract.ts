/**
 * The RateLimitStore contract: every adapter passes this suite (in-memory, DynamoDB via
 * dynalite). Call `describeRateLimitStoreContract` from a test file with a factory per adapter.
 */

import { describe, expect, it } from "vitest";
import type { RateLimitStore } from "../../core/ports.ts";

const WINDOW = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

export function describeRateLimitStoreContract(
  name: string,
  createStore: () => Promise<RateLimitStore>,
): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    it("counts hits of one key in one window from 1 upwards", async () => {
      const store = await createStore();

      const counts = [];
      for (let i = 0; i < 3; i++) counts.push(await store.increment("10.0.0.1", T0, WINDOW));

      expect(counts).toEqual([1, 2, 3]);
    });

    it("keeps keys independent", async () => {
      const store = await createStore();

      await store.increment("10.0.0.1", T0, WINDOW);
      await store.increment("10.0.0.1", T0, WINDOW);

      expect(await store.increment("10.0.0.2", T0, WINDOW)).toBe(1);
    });

    it("starts a new count in a new window", async () => {
      const store = await createStore();

      await store.increment("10.0.0.1", T0, WINDOW);
      await store.increment("10.0.0.1", T0, WINDOW);

      expect(await store.increment("10.0.0.1", T0 + WINDOW, WINDOW)).toBe(1);
    });

    it("counts concurrent hits atomically: no hit is lost", async () => {
      const store = await createStore();

      const counts = await Promise.all(
        Array.from({ length: 25 }, () => store.increment("2001:db8::/64", T0, WINDOW)),
      );

      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });
  });
}
