/**
 * The time-series destination of a UDP pipeline: points batched by `maxBatchSize` or 1 s after
 * the first buffered one (CONTRACT §7), written through the TimeseriesWriter chosen at wiring.
 * - An outage (no answer, 5xx, 401/403/404/408/429) keeps the batch and writes it again, whole,
 *   after a backoff; nothing of it was stored, so nothing is written twice. Points without a time
 *   get the buffering time, so a rewrite after a lost answer replaces the same points in InfluxDB
 *   (same series and time) instead of adding new ones.
 * - A refusal of the data (other 4xx) is never written again, smaller or not: InfluxDB stores the
 *   valid points of a refused request ("partial write"), so a rewrite would repeat them (quirk
 *   15). The batch is logged with a preview and counted as rejected (minus what InfluxDB says it
 *   kept, when it says so).
 * - A point that cannot be encoded as line protocol is rejected alone, before it can spoil a batch.
 * The database is ensured before the first write, and again after a 404 (it was dropped).
 * Points are encoded when they are buffered and wait as line protocol in a LineStore (why: see
 * line-store.ts); a batch is written as one body of those lines.
 */
import { describeError } from "../destinations/describe-error.ts";
import type { ItemBatch } from "../destinations/item-batcher.ts";
import { LineProtocolError, type Point } from "../destinations/line-protocol.ts";
import { TimeseriesWriteError } from "../destinations/timeseries-write-error.ts";
import type { LogThrottle } from "../logging/log-throttle.ts";
import type { Clock, Logger, TimeseriesWriter } from "../ports.ts";
import { type DestinationSink, type SinkTuning, startBatchedSink } from "./batched-sink.ts";
import { createLineStore, type StoredLine } from "./line-store.ts";

export interface PointsSinkOptions {
  series: TimeseriesWriter;
  tuning: SinkTuning;
  /** Told of every failed write request (error tracking); absent for the error points' own sink. */
  onWriteError?: ((error: unknown) => void) | undefined;
  clock: Clock;
  logger: Logger;
  throttle: LogThrottle;
}

const DESTINATION = "timeseriesdb";
const PREVIEW_CHARS = 200;

/** ensureDatabase failed: an outage or a set-up problem, never a refusal of the batch's data. */
export class DatabaseNotReadyError extends Error {
  override name = "DatabaseNotReadyError";
}

export function startPointsSink(options: PointsSinkOptions): DestinationSink<Point> {
  const { series, clock, logger, throttle } = options;
  let ensured = false;
  let unencodable = 0;
  const lines = createLineStore();

  async function write(batch: ItemBatch<StoredLine>): Promise<void> {
    if (!ensured) {
      try {
        await series.ensureDatabase();
      } catch (error) {
        throw new DatabaseNotReadyError("the time-series database could not be ensured", { cause: error });
      }
      ensured = true;
    }
    try {
      await series.writeLines(lines.body(batch.items));
    } catch (error) {
      if (error instanceof TimeseriesWriteError && error.status === 404) ensured = false;
      throw error;
    }
  }

  const sink = startBatchedSink<StoredLine>({
    destination: DESTINATION,
    noun: "points",
    write,
    release: (items) => lines.release(items),
    refusal(error, batch) {
      if (
        !(error instanceof LineProtocolError || (error instanceof TimeseriesWriteError && error.refusesData))
      ) {
        return undefined;
      }
      return {
        count: refusedCount(error, batch.items.length),
        fields: {
          points: batch.items.length,
          preview: batch.items[0] === undefined ? "" : lines.text(batch.items[0], PREVIEW_CHARS),
        },
      };
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
      await sink.write(accepted);
    },
    stats() {
      const stats = sink.stats();
      return { ...stats, rejected: stats.rejected + unencodable };
    },
    stop: () => sink.stop(),
  };
}

/** Points of a refused request the server did not keep: all, unless it reports `dropped=N`. */
function refusedCount(error: Error, batchSize: number): number {
  const reported = /\bdropped=(\d+)/.exec(error.message)?.[1];
  return reported === undefined ? batchSize : Math.min(Number(reported), batchSize);
}
