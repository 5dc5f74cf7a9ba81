/**
 * The one rule for a write the time-series database may partly refuse, shared by the audit
 * destination and the agent's points: a refusal is not an outage.
 *
 * - All stored: nothing refused.
 * - No answer, 5xx, or a set-up or load status (401/403/404/408/429): an outage. The error is
 *   thrown for the caller's retry with backoff; nothing of it counts as written.
 * - A refusal where the server stored every other line (InfluxDB's partial write): the rest
 *   counts as written at once, the refused lines are never written again, with no backoff.
 * - A refusal where the server stored nothing of the request but named the lines it refused
 *   (InfluxDB 2.x `unable to parse`, or 1.x when no line parsed): the other lines are written
 *   again once, without them: at most one extra write. Whatever that write refuses is refused
 *   too (if it stores nothing again, all of it), and it is never tried a third time. An outage
 *   on that second write is thrown like any other: the caller's retry writes the whole batch
 *   again, which the server, having stored nothing of it, cannot have half.
 * - A refusal naming no line, with nothing stored: every line of the request is refused.
 */

import type { TimeseriesRefusal } from "./timeseries-refusal.ts";
import { TimeseriesWriteError } from "./timeseries-write-error.ts";

/**
 * Writes `size` lines with `write` (all of them when given undefined, else the lines at those
 * indices) under the rule above. Resolves with what the database refused, indices into the
 * `size` lines (undefined when it stored everything); rejects with the error of an outage.
 */
export async function writeAcceptingRefusals(
  size: number,
  write: (indices: readonly number[] | undefined) => Promise<void>,
): Promise<TimeseriesRefusal | undefined> {
  const first = await refusalOf(() => write(undefined));
  if (first === undefined || first.restStored) return first;
  const named = new Set(first.lines);
  if (named.size === 0 || named.size >= size) return everything(first, size);
  const rest: number[] = [];
  for (let index = 0; index < size; index += 1) if (!named.has(index)) rest.push(index);
  const second = await refusalOf(() => write(rest));
  if (second === undefined) return { ...first, count: named.size, lines: [...named], restStored: true };
  if (!second.restStored) return everything(first, size);
  const lines = [...named, ...second.lines.map((index) => rest[index] as number)].sort((a, b) => a - b);
  return { ...first, count: named.size + second.count, lines, restStored: true };
}

/** The refusal the write ended in, undefined when it stored everything; an outage is rethrown. */
async function refusalOf(write: () => Promise<void>): Promise<TimeseriesRefusal | undefined> {
  try {
    await write();
    return undefined;
  } catch (error) {
    // Too large is not about the data: the caller writes the lines again in smaller requests.
    if (!(error instanceof TimeseriesWriteError && error.refusesData) || error.tooLarge) throw error;
    // A writer that cannot say what was refused (none of ours): the whole request was.
    return (
      error.refusal ?? { reason: "other", detail: error.message, count: 0, lines: [], restStored: false }
    );
  }
}

function everything(refusal: TimeseriesRefusal, size: number): TimeseriesRefusal {
  return {
    ...refusal,
    count: size,
    lines: Array.from({ length: size }, (_, index) => index),
    restStored: false,
  };
}
