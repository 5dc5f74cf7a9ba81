/**
 * The one write path of every time-series writer (the audit destination, the agent's points, the
 * interval counters): a chunk of lines written under the rule a refusal is not an outage
 * (write-accepting-refusals.ts), and a request the server found too large to read (413, see
 * isTooLarge) written again at once in two halves, each under the same rules, down to single
 * lines. A 413 is not the data's fault and nothing of the request was stored, so no line is lost
 * to it and no backoff is needed: the halves are smaller. Only a line that is too large on its own
 * is refused, as `too_large`.
 *
 * An outage in any request fails the whole chunk for the caller's retry, as before; halves
 * already stored are then written again, which replaces the same points (same series and time).
 */
import { REFUSAL_DETAIL_CHARS, type TimeseriesRefusal } from "./timeseries-refusal.ts";
import { TimeseriesWriteError } from "./timeseries-write-error.ts";
import { writeAcceptingRefusals } from "./write-accepting-refusals.ts";

/**
 * Writes `size` lines with `write` (all of them when given undefined, else the lines at those
 * indices). Resolves with what the database refused, one entry per refusal with indices into the
 * `size` lines, one per reason (empty when it stored everything); rejects with the error of an
 * outage.
 */
export function writeWithinSizeLimit(
  size: number,
  write: (indices: readonly number[] | undefined) => Promise<void>,
): Promise<TimeseriesRefusal[]> {
  const all = Array.from({ length: size }, (_, index) => index);
  return writePart(all, write, true).then(oneByReason);
}

/** Writes the lines at `indices` (`whole`: all of them, written as the caller's whole chunk). */
async function writePart(
  indices: readonly number[],
  write: (indices: readonly number[] | undefined) => Promise<void>,
  whole: boolean,
): Promise<TimeseriesRefusal[]> {
  try {
    const refusal = await writeAcceptingRefusals(indices.length, (picked) =>
      write(picked === undefined ? (whole ? undefined : indices) : picked.map((i) => indices[i] as number)),
    );
    if (refusal === undefined) return [];
    return [{ ...refusal, lines: refusal.lines.map((i) => indices[i] as number) }];
  } catch (error) {
    if (!(error instanceof TimeseriesWriteError && error.tooLarge)) throw error;
    const [only] = indices;
    if (indices.length === 1 && only !== undefined) return [tooLarge(error, only)];
    const middle = Math.ceil(indices.length / 2);
    const first = await writePart(indices.slice(0, middle), write, false);
    const second = await writePart(indices.slice(middle), write, false);
    return [...first, ...second];
  }
}

function tooLarge(error: TimeseriesWriteError, line: number): TimeseriesRefusal {
  const detail = error.message.slice(0, REFUSAL_DETAIL_CHARS);
  return { reason: "too_large", detail, count: 1, lines: [line], restStored: true };
}

/** Refusals of the halves joined by reason: counts added, lines joined, the first detail kept. */
function oneByReason(refusals: readonly TimeseriesRefusal[]): TimeseriesRefusal[] {
  const byReason = new Map<string, TimeseriesRefusal>();
  for (const refusal of refusals) {
    const known = byReason.get(refusal.reason);
    byReason.set(
      refusal.reason,
      known === undefined
        ? refusal
        : {
            ...known,
            count: known.count + refusal.count,
            lines: [...known.lines, ...refusal.lines].sort((a, b) => a - b),
            restStored: known.restStored && refusal.restStored,
          },
    );
  }
  return [...byReason.values()];
}
