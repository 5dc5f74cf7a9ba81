import { describe, expect, it } from "vitest";
import { readRefusal } from "../../../../../core/adapters/influx/influx-refusal.ts";
import { repairTagLimitRefusal } from "../../../../../core/adapters/influx/tag-limit-repair.ts";
import { TimeseriesWriteError } from "../../../../../core/destinations/timeseries-write-error.ts";

const answer = JSON.stringify({
  error:
    'partial write: max-values-per-tag limit exceeded (3/3): measurement="m" tag="k" value="new" dropped=1',
});
const lines = ["m,k=a v=11 1", "m,k=new v=12 2", "m,k=a v=13 3", "other,k=zzz v=1 4", "m,k=other v=15 5"];

function deps(existing: string[], rewriteError?: Error) {
  const calls = { asked: [] as string[][], rewritten: [] as string[] };
  return {
    calls,
    deps: {
      async existingValues(measurement: string, key: string, values: readonly string[]) {
        expect([measurement, key]).toEqual(["m", "k"]);
        calls.asked.push([...values]);
        return new Set(existing);
      },
      async rewrite(body: string) {
        calls.rewritten.push(body);
        if (rewriteError !== undefined) throw rewriteError;
      },
    },
  };
}

describe("repairTagLimitRefusal (InfluxDB 1.x loses good points beside a tag-limit refusal)", () => {
  it("names every line whose value the database lacks and writes all the others once more", async () => {
    const { calls, deps: repair } = deps(["a"]);

    const refusal = await repairTagLimitRefusal(readRefusal(answer, lines), lines, answer, repair);

    expect(calls.asked).toEqual([["a", "new", "other"]]);
    expect(calls.rewritten).toEqual(["m,k=a v=11 1\nm,k=a v=13 3\nother,k=zzz v=1 4"]);
    expect(refusal).toMatchObject({
      reason: "max_values_per_tag",
      count: 2,
      lines: [1, 4],
      restStored: true,
    });
  });

  it("adds what the rewrite refuses, and lets an outage on it through for a retry", async () => {
    const refusedAgain = new TimeseriesWriteError("answered 400", 400, {
      refusal: { reason: "field_type_conflict", detail: "", count: 1, lines: [1], restStored: true },
    });
    expect(
      await repairTagLimitRefusal(readRefusal(answer, lines), lines, answer, deps(["a"], refusedAgain).deps),
    ).toMatchObject({ count: 3, lines: [1, 2, 4] });

    const outage = new TimeseriesWriteError("no answer", undefined);
    await expect(
      repairTagLimitRefusal(readRefusal(answer, lines), lines, answer, deps(["a"], outage).deps),
    ).rejects.toBe(outage);
  });

  it("keeps the server's own count and naming when the database cannot be asked", async () => {
    const read = readRefusal(answer, lines);
    const failing = {
      existingValues: () => Promise.reject(new Error("no answer")),
      rewrite: () => Promise.reject(new Error("must not be called")),
    };

    expect(await repairTagLimitRefusal(read, lines, answer, failing)).toBe(read);
  });
});
