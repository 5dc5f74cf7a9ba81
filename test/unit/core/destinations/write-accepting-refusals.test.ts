import { describe, expect, it } from "vitest";
import type { TimeseriesRefusal } from "../../../../core/destinations/timeseries-refusal.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import { writeAcceptingRefusals } from "../../../../core/destinations/write-accepting-refusals.ts";

const refused = (refusal: Partial<TimeseriesRefusal>) =>
  new TimeseriesWriteError("answered 400", 400, {
    refusal: { reason: "unparsable", detail: "d", count: 1, lines: [], restStored: true, ...refusal },
  });

/** A write that answers with the queued errors in turn, recording which lines it was given. */
function writes(...answers: (Error | undefined)[]) {
  const calls: (readonly number[] | undefined)[] = [];
  const write = async (indices: readonly number[] | undefined) => {
    calls.push(indices);
    const answer = answers.shift();
    if (answer !== undefined) throw answer;
  };
  return { calls, write };
}

describe("writeAcceptingRefusals", () => {
  it("writes once when everything is stored", async () => {
    const { calls, write } = writes();

    expect(await writeAcceptingRefusals(3, write)).toBeUndefined();
    expect(calls).toEqual([undefined]);
  });

  it("takes a partial write as it is: one write, the refused lines never written again", async () => {
    const { calls, write } = writes(refused({ count: 2, lines: [0, 2], restStored: true }));

    const refusal = await writeAcceptingRefusals(4, write);

    expect(calls).toEqual([undefined]);
    expect(refusal).toMatchObject({ count: 2, lines: [0, 2], restStored: true });
  });

  it("writes the others once more when the server stored nothing but named the bad lines", async () => {
    const { calls, write } = writes(refused({ count: 1, lines: [1], restStored: false }));

    const refusal = await writeAcceptingRefusals(3, write);

    expect(calls).toEqual([undefined, [0, 2]]);
    expect(refusal).toMatchObject({ count: 1, lines: [1], restStored: true });
  });

  it("never writes a third time: a second refusal adds its lines, or all when it stored nothing again", async () => {
    const partly = writes(
      refused({ count: 1, lines: [1], restStored: false }),
      refused({ count: 1, lines: [1], restStored: true }),
    );
    expect(await writeAcceptingRefusals(4, partly.write)).toMatchObject({ count: 2, lines: [1, 2] });
    expect(partly.calls).toEqual([undefined, [0, 2, 3]]);

    const again = writes(
      refused({ count: 1, lines: [1], restStored: false }),
      refused({ count: 1, lines: [0], restStored: false }),
    );
    expect(await writeAcceptingRefusals(3, again.write)).toMatchObject({ count: 3, lines: [0, 1, 2] });
    expect(again.calls).toHaveLength(2);
  });

  it("refuses every line when the server stored nothing and named none", async () => {
    const { calls, write } = writes(new TimeseriesWriteError("answered 400: bad request", 400));

    expect(await writeAcceptingRefusals(2, write)).toMatchObject({
      reason: "other",
      count: 2,
      lines: [0, 1],
      restStored: false,
    });
    expect(calls).toHaveLength(1);
  });

  it("throws an outage for the caller to retry: no answer, 5xx, or a set-up status", async () => {
    for (const outage of [
      new TimeseriesWriteError("no answer", undefined),
      new TimeseriesWriteError("answered 503", 503),
      new TimeseriesWriteError("answered 404", 404),
      new Error("socket hang up"),
    ]) {
      await expect(writeAcceptingRefusals(2, writes(outage).write)).rejects.toBe(outage);
    }
  });
});
