/**
 * The timeseriesdb destination: maps events to `audit_event` points and writes them in chunks of
 * `timeseriesdbConfig.maxBatchSize`, on the write path every time-series writer shares
 * (write-within-size-limit.ts), under the rule a refusal is not an outage:
 * - An outage (server unreachable, 5xx, set-up statuses) fails the rest of the batch at once,
 *   for the batcher to write it again after a backoff; nothing is lost.
 * - Points the server refuses (beyond its retention policy, over its tag-value limit, a field
 *   type conflict, unparsable) are refused for good: what it took of the chunk counts as written
 *   at once, and the refused events are reported by reason (DestinationWriteError.refused) to
 *   be logged and counted, never written again. A refusal brings no smaller rewrites and no
 *   backoff: it holds up the events behind it by at most one write.
 * - A chunk too large for the server to read (413) is written again at once in halves; only an
 *   event whose point is too large on its own is refused (`too_large`).
 * - An event that cannot be made into a point (objectData nested too deeply for JSON.stringify)
 *   or whose point cannot be encoded as line protocol is refused on its own (`unencodable`)
 *   before it can spoil a chunk.
 * - Refusals met in a batch that then meets an outage are reported with the outage
 *   (unwritten-events.ts).
 */

import { type AcceptedEvent, extractAuditFacts, type StaticTag } from "../audit/index.ts";
import type { AuditDestination, Logger, TimeseriesClient } from "../ports.ts";
import { checkPoint, type Point } from "../shared/line-protocol.ts";
import { toAuditPoint } from "./audit-point.ts";
import { ensuringDatabase } from "./database-ensuring-series.ts";
import { DatabaseSetupError } from "./database-setup-error.ts";
import { type DestinationRefusal, DestinationWriteError } from "./destination-write-error.ts";
import { keepTimesApart } from "./event-time-offset.ts";
import { UnwrittenEvents } from "./unwritten-events.ts";
import { writeWithinSizeLimit } from "./write-within-size-limit.ts";

export interface TimeseriesDestinationOptions {
  series: TimeseriesClient;
  maxBatchSize: number;
  measurementName: string;
  staticTags: readonly StaticTag[];
  /** Where a database that needs an operator is said (once, at ERROR). */
  logger?: Logger | undefined;
}

interface Entry {
  event: AcceptedEvent;
  point: Point;
}

const NAME = "timeseriesdb";

export function createTimeseriesDestination(options: TimeseriesDestinationOptions): AuditDestination {
  // The database is created at start (prepare); if the server was down then, before the first
  // write, and again after a write answered 404 (it was dropped).
  const series = ensuringDatabase(options.series, { logger: options.logger });
  const maxBatchSize = Math.max(1, options.maxBatchSize);
  const pointOptions = { measurementName: options.measurementName, staticTags: options.staticTags };

  /** Writes one chunk; resolves with what the server refused of it, rejects on an outage. */
  async function writeChunk(chunk: readonly Entry[]): Promise<DestinationRefusal[]> {
    const refusals = await writeWithinSizeLimit(chunk.length, (indices) =>
      series.write(
        indices === undefined
          ? chunk.map((entry) => entry.point)
          : indices.map((i) => (chunk[i] as Entry).point),
      ),
    );
    return refusals.map(({ reason, count, detail, lines }) => ({
      reason,
      count,
      detail,
      events: lines.flatMap((index) => chunk[index]?.event ?? []),
    }));
  }

  return {
    name: NAME,
    async prepare() {
      try {
        await series.ensureDatabase();
      } catch (error) {
        // Already said at ERROR, with what to do, by the database gate; the first write tries again.
        if (!(error instanceof DatabaseSetupError)) throw error;
      }
    },
    async write(batch) {
      try {
        await series.ensureDatabase();
      } catch (error) {
        throw new DestinationWriteError(NAME, batch.events, { cause: error });
      }
      const unwritten = new UnwrittenEvents(NAME);
      const entries: Entry[] = [];
      for (const event of batch.events) {
        try {
          const point = toAuditPoint(extractAuditFacts(event), pointOptions);
          checkPoint(point);
          entries.push({ event, point });
        } catch (error) {
          // Line protocol cannot carry it, or JSON.stringify cannot (objectData nested too deeply).
          unwritten.unencodable(event, error);
        }
      }
      // Two events of one series may hash to the same time; within the batch they are kept apart.
      const apart = keepTimesApart(entries);
      for (let start = 0; start < apart.length; start += maxBatchSize) {
        const chunk = apart.slice(start, start + maxBatchSize);
        try {
          for (const refusal of await writeChunk(chunk)) unwritten.refuse(refusal);
        } catch (error) {
          unwritten.outage(
            apart.slice(start).map((entry) => entry.event),
            error,
          );
          break;
        }
      }
      unwritten.throwIfAny();
    },
  };
}
