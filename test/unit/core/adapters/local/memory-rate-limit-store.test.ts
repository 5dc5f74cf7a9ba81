import { describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "../../../../../core/adapters/local/memory-rate-limit-store.ts";

const W = 60_000;

describe("in-memory rate-limit store memory bounds", () => {
  it("drops the entries of ended windows once a new window starts", async () => {
    const store = createMemoryRateLimitStore();
    for (let i = 0; i < 100; i++) await store.increment(`10.0.0.${i}`, 0, W);

    await store.increment("10.0.1.1", W, W);

    expect(store.size()).toBe(1);
  });

  it("never holds more than maxKeys keys", async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 10 });

    for (let i = 0; i < 50; i++) await store.increment(`10.0.0.${i}`, 0, W);

    expect(store.size()).toBe(10);
  });
});
