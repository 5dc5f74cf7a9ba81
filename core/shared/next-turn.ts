/**
 * Long work done on the thread that answers requests gives way between its pieces: `nextTurn()`
 * resolves in the event loop's next turn, after every request, answer and sync that is already
 * waiting has run.
 *
 * Why: a table-file destination writing a batch of 1,000 events made the rows (about 5 ms on a
 * quiet 2-core machine) and encoded the Parquet file (about 9 ms) in one go, and every ingest
 * request that arrived meanwhile waited for all of it. Under load those pieces took 20–30 ms,
 * and the 99th percentile of the ingest answers was about that long. Cut into pieces of a few
 * milliseconds, with a turn between them, the same work holds no request longer than one piece.
 */
import { setImmediate } from "node:timers/promises";

export function nextTurn(): Promise<void> {
  return setImmediate();
}
