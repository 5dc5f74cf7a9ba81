import { describe, expect, it } from "vitest";
import type { TimeseriesRefusal } from "../../../../core/destinations/timeseries-refusal.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import { writeWithinSizeLimit } from "../../../../core/destinations/write-within-size-limit.ts";

const tooLarge = () => new TimeseriesWriteError('answered 413: {"error":"Request Entity Too Large"}', 413);
const refused = (refusal: Partial<TimeseriesRefusal>) =>
  new TimeseriesWriteError("answered 400", 400, {
    refusal: { reason: "beyond_retention", detail: "d", count: 1, lines: [], restStored: true, ...refusal },
  });

/**
 * A server that stores at most `limit` lines a request (413 above it), answers a line in `huge`
 * 413 whatever the request, and answers the errors queued in `answers` to the requests that fit.
 */
function server(
  size: number,
  limit: number,
  huge: readonly number[] = [],
  answers: (Error | undefined)[] = [],
) {
  const stored: number[] = [];
  const requests: number[][] = [];
  const write = async (indices: readonly number[] | undefined) => {
    const lines = indices === undefined ? Array.from({ length: size }, (_, i) => i) : [...indices];
    requests.push(lines);
    if (lines.length > limit || lines.some((line) => huge.includes(line))) throw tooLarge();
    const answer = answers.shift();
    if (answer !== undefined) throw answer;
    stored.push(...lines);
  };
  return { stored, requests, write };
}

describe("writeWithinSizeLimit", () => {
  it("writes once when the server takes the request", async () => {
    const { requests, write } = server(4, 10);

    expect(await writeWithinSizeLimit(4, write)).toEqual([]);
    expect(requests).toEqual([[0, 1, 2, 3]]);
  });

  it("writes a request the server finds too large again in halves, at once, until each fits", async () => {
    const { stored, requests, write } = server(8, 2);

    expect(await writeWithinSizeLimit(8, write)).toEqual([]);
    expect(stored.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(requests).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [0, 1, 2, 3],
      [0, 1],
      [2, 3],
      [4, 5, 6, 7],
      [4, 5],
      [6, 7],
    ]);
  });

  it("refuses only a line too large on its own, as too_large, and stores the others", async () => {
    const { stored, write } = server(5, 5, [3]);

    const refusals = await writeWithinSizeLimit(5, write);

    expect(stored.sort()).toEqual([0, 1, 2, 4]);
    expect(refusals).toEqual([
      { reason: "too_large", detail: expect.stringContaining("413"), count: 1, lines: [3], restStored: true },
    ]);
  });

  it("names the lines a half refused by their place in the whole request, one refusal per reason", async () => {
    const { write } = server(
      8,
      4,
      [],
      [refused({ count: 1, lines: [1] }), refused({ count: 2, lines: [0, 3] })],
    );

    const refusals = await writeWithinSizeLimit(8, write);

    expect(refusals).toEqual([
      { reason: "beyond_retention", detail: "d", count: 3, lines: [1, 4, 7], restStored: true },
    ]);
  });

  it("rejects with an outage in any half, for the caller's retry of the whole chunk", async () => {
    const outage = new TimeseriesWriteError("no answer", undefined);
    const { write } = server(4, 2, [], [undefined, outage]);

    await expect(writeWithinSizeLimit(4, write)).rejects.toBe(outage);
  });
});
