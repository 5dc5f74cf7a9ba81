import { describe, expect, it } from "vitest";
import {
  createGroupCommit,
  type GroupCommitOptions,
} from "../../../../../../core/adapters/local/durable-queue/group-commit.ts";

/** Steps that record what they were given and finish only when told (in any order). */
function controlledSteps() {
  const writes: string[][] = [];
  const finishWrite: Array<(error?: Error) => void> = [];
  /** For each sync: how many writes had completed when it started. */
  const syncs: number[] = [];
  const finishSync: Array<(error?: Error) => void> = [];
  const durable: string[][] = [];
  let writesDone = 0;
  let recovered = 0;
  const settle = (resolve: () => void, reject: (error: Error) => void) => (error?: Error) =>
    error === undefined ? resolve() : reject(error);
  return {
    writes,
    finishWrite,
    syncs,
    finishSync,
    durable,
    recovered: () => recovered,
    steps: {
      write: (items: readonly string[]) =>
        new Promise<void>((resolve, reject) => {
          writes.push([...items]);
          finishWrite.push(
            settle(() => {
              writesDone += 1;
              resolve();
            }, reject),
          );
        }),
      sync: () =>
        new Promise<void>((resolve, reject) => {
          syncs.push(writesDone);
          finishSync.push(settle(resolve, reject));
        }),
      durable: (items: readonly string[]) => void durable.push([...items]),
      recover: async () => {
        recovered += 1;
      },
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A group commit over controlled steps; `submit` records how each record settled, by name. */
function start(options: GroupCommitOptions = {}) {
  const steps = controlledSteps();
  const commit = createGroupCommit(steps.steps, options);
  const settled: Record<string, string> = {};
  const submit = (...names: string[]) => {
    for (const name of names) {
      commit.submit(name).then(
        () => {
          settled[name] = "ok";
        },
        (error: Error) => {
          settled[name] = error.message;
        },
      );
    }
  };
  return { ...steps, commit, settled, submit };
}

describe("group commit: grouping and acknowledging", () => {
  it("writes every record submitted in one turn as one group, and acknowledges it after its sync", async () => {
    const { submit, settled, writes, finishWrite, syncs, finishSync, durable } = start();
    submit("a", "b", "c");

    await turn();
    expect(writes).toEqual([["a", "b", "c"]]);
    finishWrite[0]?.();
    await turn();
    expect(syncs).toEqual([1]);
    expect(settled).toEqual({});
    finishSync[0]?.();
    await turn();

    expect(settled).toEqual({ a: "ok", b: "ok", c: "ok" });
    expect(durable).toEqual([["a", "b", "c"]]);
  });

  it("writes the next group while the previous one syncs, and one sync then covers what waited", async () => {
    const { submit, settled, writes, finishWrite, syncs, finishSync, durable } = start();
    submit("a");
    await turn();
    finishWrite[0]?.();
    await turn(); // "a" syncs

    submit("b");
    await turn();
    expect(writes).toEqual([["a"], ["b"]]);
    finishWrite[1]?.();
    submit("c"); // waits for the write of "b", then is written in the next turn
    await turn();
    await turn();
    expect(writes).toEqual([["a"], ["b"], ["c"]]);
    finishWrite[2]?.();
    await turn();
    expect(syncs).toEqual([1]); // one sync at a time by default: "b" and "c" wait for the next
    finishSync[0]?.();
    await turn();
    expect(settled).toEqual({ a: "ok" });
    expect(syncs).toEqual([1, 3]);
    finishSync[1]?.();
    await turn();

    expect(settled).toEqual({ a: "ok", b: "ok", c: "ok" });
    expect(durable).toEqual([["a"], ["b"], ["c"]]);
  });

  it("acknowledges in order when a later sync completes before an earlier one", async () => {
    const { submit, settled, finishWrite, syncs, finishSync, durable } = start({ maxSyncsInFlight: 2 });
    submit("a");
    await turn();
    finishWrite[0]?.();
    await turn();
    submit("b");
    await turn();
    finishWrite[1]?.();
    await turn();
    expect(syncs).toEqual([1, 2]);

    finishSync[1]?.();
    await turn();
    expect(settled).toEqual({});
    expect(durable).toEqual([]);
    finishSync[0]?.();
    await turn();

    expect(settled).toEqual({ a: "ok", b: "ok" });
    expect(durable).toEqual([["a"], ["b"]]);
  });

  it("is idle only once nothing waits, writes or syncs", async () => {
    const { commit, finishWrite, finishSync } = start();
    let idle = false;
    void commit.submit("a");
    void commit.idle().then(() => {
      idle = true;
    });
    await turn();
    finishWrite[0]?.();
    await turn();
    expect(idle).toBe(false);
    finishSync[0]?.();
    await turn();

    expect(idle).toBe(true);
  });
});

describe("group commit: failed syncs and writes", () => {
  it("fails a group whose sync failed and every later one, even one whose own sync succeeded", async () => {
    const { submit, settled, finishWrite, finishSync, durable, recovered } = start({ maxSyncsInFlight: 2 });
    submit("a");
    await turn();
    finishWrite[0]?.();
    await turn();
    submit("b");
    await turn();
    finishWrite[1]?.();
    await turn();

    finishSync[1]?.();
    await turn();
    finishSync[0]?.(new Error("EIO"));
    await turn();

    expect(settled).toEqual({ a: "EIO", b: "EIO" });
    expect(durable).toEqual([]);
    expect(recovered()).toBe(1);
  });

  it("fails the groups not yet durable at once when a sync fails, and recovers once nothing runs", async () => {
    const { submit, settled, finishWrite, finishSync, durable, recovered } = start({ maxSyncsInFlight: 2 });
    submit("a");
    await turn();
    finishWrite[0]?.();
    await turn();
    submit("b");
    await turn();
    finishWrite[1]?.();
    await turn();

    finishSync[1]?.(new Error("EIO"));
    await turn();
    expect(settled).toEqual({ a: "EIO", b: "EIO" });
    expect(recovered()).toBe(0); // the sync of "a" still runs
    finishSync[0]?.();
    await turn();

    expect(durable).toEqual([]);
    expect(recovered()).toBe(1);
  });

  it("fails a group whose write failed and the later ones, and writes the records that waited after recovering", async () => {
    const { submit, settled, writes, finishWrite, finishSync, durable, recovered } = start();
    submit("a");
    await turn();
    finishWrite[0]?.();
    await turn();
    submit("b");
    await turn();
    submit("c"); // waits: "b" is being written

    finishWrite[1]?.(new Error("ENOSPC"));
    await turn();
    expect(settled).toEqual({ a: "ENOSPC", b: "ENOSPC" });
    expect(recovered()).toBe(0); // the sync of "a" still runs
    finishSync[0]?.();
    await turn();
    expect(recovered()).toBe(1);
    await turn();
    expect(writes).toEqual([["a"], ["b"], ["c"]]);
    finishWrite[2]?.();
    await turn();
    finishSync[1]?.();
    await turn();

    expect(settled).toEqual({ a: "ENOSPC", b: "ENOSPC", c: "ok" });
    expect(durable).toEqual([["c"]]);
  });
});
