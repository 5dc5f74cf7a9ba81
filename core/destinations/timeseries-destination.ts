/**
 * The timeseriesdb destination: maps events to `audit_event` points and writes them in chunks of
 * `timeseriesdbConfig.maxBatchSize`. When the server refuses a chunk's data, the chunk is written
 * again in smaller chunks (500, 250, 100, 10, 1) after a backoff, so one bad point cannot hold
 * back the others; a single point still refused is reported as permanently rejected. An outage
 * (server unreachable, 5xx) fails the rest of the batch at once for the batcher to retry.
 */

import type { AcceptedEvent } from "../audit/accepted-event.ts";
import { extractAuditFacts } from "../audit/audit-facts.ts";
import type { StaticTag } from "../audit/static-tags.ts";
import type { DestinationWriter, TimeseriesWriter } from "../ports.ts";
import { toAuditPoint } from "./audit-point.ts";
import { DestinationWriteError } from "./destination-writer.ts";
import { checkPoint, type Point } from "./line-protocol.ts";
import { TimeseriesWriteError } from "./timeseries-write-error.ts";

export interface TimeseriesDestinationOptions {
  series: TimeseriesWriter;
  maxBatchSize: number;
  measurementName: string;
  staticTags: readonly StaticTag[];
  /** Waits between a refused chunk and its smaller rewrite; injected so tests do not wait. */
  sleep: (ms: number) => Promise<void>;
  initialRetryDelayMs?: number;
}

const SMALLER_SIZES = [500, 250, 100, 10, 1];

interface Entry {
  event: AcceptedEvent;
  point: Point;
}

export function createTimeseriesDestination(options: TimeseriesDestinationOptions): DestinationWriter {
  const { series, sleep } = options;
  const maxBatchSize = Math.max(1, options.maxBatchSize);
  const sizes = [maxBatchSize, ...SMALLER_SIZES.filter((size) => size < maxBatchSize)];
  const pointOptions = { measurementName: options.measurementName, staticTags: options.staticTags };

  // The database is created at start (prepare); if the server was down then, before the first write.
  let ensured: Promise<void> | undefined;
  const ensureDatabase = () => {
    ensured ??= series.ensureDatabase().catch((error: unknown) => {
      ensured = undefined;
      throw error;
    });
    return ensured;
  };

  return {
    name: "timeseriesdb",
    prepare: ensureDatabase,
    async write(batch) {
      try {
        await ensureDatabase();
      } catch (error) {
        throw new DestinationWriteError("timeseriesdb", batch.events, { cause: error });
      }
      const rejected: AcceptedEvent[] = [];
      const entries: Entry[] = [];
      let firstRefusal: unknown;
      for (const event of batch.events) {
        const point = toAuditPoint(extractAuditFacts(event), pointOptions);
        try {
          checkPoint(point);
          entries.push({ event, point });
        } catch (error) {
          firstRefusal ??= error;
          rejected.push(event);
        }
      }
      let delay = options.initialRetryDelayMs ?? 1000;

      const writeAt = async (chunkEntries: Entry[], level: number): Promise<void> => {
        const size = sizes[level] ?? 1;
        for (let start = 0; start < chunkEntries.length; start += size) {
          const chunk = chunkEntries.slice(start, start + size);
          try {
            await series.write(chunk.map((entry) => entry.point));
          } catch (error) {
            const refusesData = error instanceof TimeseriesWriteError && error.refusesData;
            if (!refusesData) {
              throw new DestinationWriteError(
                "timeseriesdb",
                [...rejected, ...chunkEntries.slice(start).map((entry) => entry.event)],
                { cause: error },
              );
            }
            if (chunk.length === 1) {
              firstRefusal ??= error;
              rejected.push(chunk[0]!.event);
              continue;
            }
            await sleep(delay);
            delay *= 2;
            await writeAt(chunk, level + 1);
          }
        }
      };

      await writeAt(entries, 0);
      if (rejected.length > 0) {
        throw new DestinationWriteError("timeseriesdb", rejected, { cause: firstRefusal, permanent: true });
      }
    },
  };
}
