import { describe, expect, it } from "vitest";
import { createGroupCommit } from "../../../../core/durable-log/group-commit.ts";

/** A flush that records its groups and finishes only when told. */
function controlledFlush() {
  const groups: string[][] = [];
  const finish: Array<(error?: Error) => void> = [];
  const flush = (items: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      groups.push([...items]);
      finish.push((error) => (error === undefined ? resolve() : reject(error)));
    });
  return { flush, groups, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("group commit", () => {
  it("flushes a lone record at once, and everything that arrives during a flush together in the next", async () => {
    const { flush, groups, finish } = controlledFlush();
    const commit = createGroupCommit(flush);

    const first = commit.submit("a");
    const waiting = ["b", "c", "d"].map((item) => commit.submit(item));
    expect(groups).toEqual([["a"]]);
    finish[0]?.();
    await first;
    await tick();
    expect(groups).toEqual([["a"], ["b", "c", "d"]]);
    finish[1]?.();
    await Promise.all(waiting);
    await commit.idle();

    expect(groups).toHaveLength(2);
  });

  it("resolves no record before its own flush finished", async () => {
    const { flush, finish } = controlledFlush();
    const commit = createGroupCommit(flush);
    let done = false;

    void commit.submit("a").then(() => {
      done = true;
    });
    await tick();
    expect(done).toBe(false);
    finish[0]?.();
    await tick();

    expect(done).toBe(true);
  });

  it("rejects the records of a failed flush only, and goes on with the next group", async () => {
    const { flush, groups, finish } = controlledFlush();
    const commit = createGroupCommit(flush);

    const failed = commit.submit("a");
    const next = commit.submit("b");
    finish[0]?.(new Error("disk full"));
    await expect(failed).rejects.toThrow("disk full");
    await tick();
    finish[1]?.();

    await expect(next).resolves.toBeUndefined();
    expect(groups).toEqual([["a"], ["b"]]);
  });
});
