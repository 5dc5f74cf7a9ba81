import { describe, expect, it } from "vitest";
import { createTaskDeduplication } from "../../../../core/task-events/task-deduplication.ts";

const EXECUTION = "32342464-c525-45c4-b755-1a2b55d4e7f1";
const OTHER = "5f0bea52-127d-4a77-9e21-6c23f959df7a";

describe("task de-duplication by execution and kind", () => {
  it("lets the first event through and calls a repeat within the window a duplicate", () => {
    const dedup = createTaskDeduplication({ windowMs: 60_000 });
    expect(dedup.isDuplicate(EXECUTION, "failed", 0)).toBe(false);
    expect(dedup.isDuplicate(EXECUTION, "failed", 59_999)).toBe(true);
  });

  it("lets a repeat through once the window has passed since the first", () => {
    const dedup = createTaskDeduplication({ windowMs: 60_000 });
    dedup.isDuplicate(EXECUTION, "failed", 0);
    expect(dedup.isDuplicate(EXECUTION, "failed", 60_000)).toBe(false);
  });

  it("tells kinds and executions apart", () => {
    const dedup = createTaskDeduplication({ windowMs: 60_000 });
    dedup.isDuplicate(EXECUTION, "failed", 0);
    expect(dedup.isDuplicate(EXECUTION, "success", 1)).toBe(false);
    expect(dedup.isDuplicate(OTHER, "failed", 2)).toBe(false);
  });

  it("always lets an event without an execution id through", () => {
    const dedup = createTaskDeduplication({ windowMs: 60_000 });
    expect(dedup.isDuplicate("", "failed", 0)).toBe(false);
    expect(dedup.isDuplicate("", "failed", 1)).toBe(false);
  });

  it("keeps memory bounded: expired entries go and at most maxEntries are kept", () => {
    const dedup = createTaskDeduplication({ windowMs: 1000, maxEntries: 100 });
    for (let i = 0; i < 1000; i += 1) dedup.isDuplicate(`exec-${i}`, "failed", 0);
    expect(dedup.size()).toBe(100);
    dedup.isDuplicate("late", "failed", 5000);
    expect(dedup.size()).toBe(1);
  });
});
