/**
 * The time-series destination of a UDP pipeline: points batched by `maxBatchSize` or 1 s after
 * the first buffered one, written through the TimeseriesClient chosen at wiring, on the write
 * path every time-series writer shares (write-within-size-limit.ts):
 * - An outage (no answer, 5xx, 401/403/404/408/429) keeps the batch and writes it again, whole,
 *   after a backoff; nothing of it was stored, so nothing is written twice. Points without a time
 *   get the buffering time, so a rewrite after a lost answer replaces the same points in InfluxDB
 *   (same series and time) instead of adding new ones.
 * - Points the database refuses (beyond retention, a field type conflict, unparsable, …) are
 *   refused for good: what it stored of the batch counts as written at once, the refused points
 *   are counted by reason, logged with a preview of the first refused line and never written
 *   again, with no backoff. (When it stored nothing and named the bad lines, the others are
 *   written once more without them.)
 * - A batch too large for the server to read (413) is written again at once in halves; only a
 *   point too large on its own is refused (`too_large`).
 * - A point that cannot be encoded as line protocol is rejected alone, before it can spoil a batch.
 * The database is ensured before the first write, and again after a 404 (it was dropped), once
 * for every writer sharing the same TimeseriesClient (database-ensuring-series.ts).
 * Points are encoded when they are buffered and wait as line protocol in a LineStore (why: see
 * line-store.ts); a batch is written as one body of those lines.
 */
import {
  ensuringDatabase,
  type ItemBatch,
  type TimeseriesRefusal,
  writeWithinSizeLimit,
} from "../destinations/index.ts";
import type { LogThrottle } from "../logging/index.ts";
import type { Clock, Logger, TimeseriesClient } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { Point } from "../shared/line-protocol.ts";
import {
  type AgentDestination,
  type DestinationTuning,
  startBatchedDestination,
} from "./batched-destination.ts";
import { createLineStore, type StoredLine } from "./line-store.ts";

export interface PointsDestinationOptions {
  series: TimeseriesClient;
  tuning: DestinationTuning;
  /** Told of every failed write request (error tracking); absent for the error points' own batched. */
  onWriteError?: ((error: unknown) => void) | undefined;
  clock: Clock;
  logger: Logger;
  throttle: LogThrottle;
}

const DESTINATION = "timeseriesdb";
const PREVIEW_CHARS = 120;

/** The database refused some points of a batch; the others were stored. */
class PointsRefusedError extends Error {
  override name = "PointsRefusedError";
  constructor(readonly refusals: readonly TimeseriesRefusal[]) {
    super(
      refusals
        .map((refusal) => `${refusal.count} point(s) refused (${refusal.reason}): ${refusal.detail}`)
        .join("; "),
    );
  }
}

export function startPointsDestination(options: PointsDestinationOptions): AgentDestination<Point> {
  const { clock, logger, throttle } = options;
  const series = ensuringDatabase(options.series, { logger });
  let unencodable = 0;
  const lines = createLineStore();

  async function write(batch: ItemBatch<StoredLine>): Promise<void> {
    const refusals = await writeWithinSizeLimit(batch.items.length, (indices) =>
      series.writeLines(
        lines.body(indices === undefined ? batch.items : indices.map((i) => batch.items[i] as StoredLine)),
      ),
    );
    if (refusals.length > 0) throw new PointsRefusedError(refusals);
  }

  const batched = startBatchedDestination<StoredLine>({
    destination: DESTINATION,
    noun: "points",
    write,
    release: (items) => lines.release(items),
    refusal(error, batch) {
      if (!(error instanceof PointsRefusedError)) return undefined;
      return error.refusals.map(({ reason, count, detail, lines: refused }) => {
        const first = batch.items[refused[0] ?? 0];
        return {
          reason,
          count,
          detail,
          fields: { points: count, preview: first === undefined ? "" : lines.text(first, PREVIEW_CHARS) },
        };
      });
    },
    tuning: options.tuning,
    onWriteError: options.onWriteError,
    clock,
    logger,
    throttle,
  });

  return {
    async write(points) {
      const now = clock.now();
      const accepted: StoredLine[] = [];
      for (const point of points) {
        try {
          accepted.push(lines.add(point.timestampMs === undefined ? { ...point, timestampMs: now } : point));
        } catch (error) {
          unencodable += 1;
          const since = throttle.admit(`${DESTINATION}:unencodable`, clock.now());
          if (since !== undefined) {
            logger.error("a point cannot be encoded as line protocol; rejected", {
              destination: DESTINATION,
              rejected: since,
              measurement: point.measurement,
              error: describeError(error),
            });
          }
        }
      }
      await batched.write(accepted);
    },
    stats() {
      const stats = batched.stats();
      if (unencodable === 0) return stats;
      const refused = { ...stats.refused, unencodable };
      return { ...stats, rejected: stats.rejected + unencodable, refused };
    },
    stop: () => batched.stop(),
    abandon: () => batched.abandon(),
  };
}
