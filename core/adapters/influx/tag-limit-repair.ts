/**
 * Repairs what InfluxDB 1.x loses beside a `max-values-per-tag` refusal.
 *
 * Why: its index checks the tag limit on a list of the request's new series that it compacts in
 * place, inside the very array the shard then reads, point by point, to tell which points were
 * refused; so a point of an existing series standing at a position the compaction overwrote is
 * skipped as if refused, uncounted and unreported. (Seen with Debian's influxd 1.6 on
 * 2026-11-27: with a tag at its limit, `m,k=a v=11` then `m,k=new v=12` answered
 * `dropped=1` for `new` and stored neither.) Its `dropped=N` counts the refused series, not the
 * points lost.
 *
 * So after such a refusal the v1 adapter asks which of the request's values of the named tag
 * the database has now (one query); the lines with any other value were refused (exact, and
 * named); the others are written once more (idempotent: the same series and time replace
 * themselves) so that nothing good is lost. At most one query and one extra write.
 */
import { type TimeseriesRefusal, TimeseriesWriteError } from "../../destinations/index.ts";
import { answerText, tagLimitOf } from "./influx-refusal.ts";
import { readLine } from "./line-protocol-lines.ts";

export interface TagLimitRepairDeps {
  /** Which of `values` the tag `key` of `measurement` has in the database now. */
  existingValues(measurement: string, key: string, values: readonly string[]): Promise<ReadonlySet<string>>;
  /** Writes these lines (joined by "\n") once more; errors as a write. */
  rewrite(body: string): Promise<void>;
}

export async function repairTagLimitRefusal(
  refusal: TimeseriesRefusal,
  lines: readonly string[],
  answer: string,
  deps: TagLimitRepairDeps,
): Promise<TimeseriesRefusal> {
  const limit = refusal.reason === "max_values_per_tag" ? tagLimitOf(answerText(answer)) : undefined;
  if (limit === undefined || !refusal.restStored) return refusal;
  const tagValues = lines.map((line) => {
    const facts = readLine(line);
    return facts?.measurement === limit.measurement ? facts.tags.get(limit.key) : undefined;
  });
  const asked = [...new Set(tagValues.filter((value): value is string => value !== undefined))];
  let existing: ReadonlySet<string>;
  try {
    existing = await deps.existingValues(limit.measurement, limit.key, asked);
  } catch {
    return refusal; // Best effort: the server's own count and naming stand.
  }
  const refused: number[] = [];
  const rest: number[] = [];
  tagValues.forEach((value, index) => {
    if (value !== undefined && !existing.has(value)) refused.push(index);
    else rest.push(index);
  });
  if (rest.length > 0) {
    try {
      await deps.rewrite(rest.map((index) => lines[index]).join("\n"));
    } catch (error) {
      if (!(error instanceof TimeseriesWriteError && error.refusal !== undefined)) throw error;
      refused.push(...error.refusal.lines.map((index) => rest[index] as number));
      refused.sort((a, b) => a - b);
    }
  }
  return { ...refusal, count: Math.max(refused.length, 1), lines: refused };
}
