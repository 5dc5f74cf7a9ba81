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
 * - A point that cannot be encoded as line protocol is refused on its own (`unencodable`) before
 *   it can spoil a chunk.
 */

import type { AcceptedEvent } from "../audit/accepted-event.ts";
import { extractAuditFacts } from "../audit/audit-facts.ts";
import type { StaticTag } from "../audit/static-tags.ts";
import type { AuditDestination, Logger, TimeseriesClient } from "../ports.ts";
import { toAuditPoint } from "./audit-point.ts";
import { ensuringDatabase } from "./database-ensuring-series.ts";
import { DatabaseSetupError } from "./database-setup-error.ts";
import { type DestinationRefusal, DestinationWriteError } from "./destination-write-error.ts";
import { keepTimesApart } from "./event-time-offset.ts";
import { checkPoint, type Point } from "./line-protocol.ts";
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
      const entries: Entry[] = [];
      const unencodable: AcceptedEvent[] = [];
      let encodingError: unknown;
      for (const event of batch.events) {
        const point = toAuditPoint(extractAuditFacts(event), pointOptions);
        try {
          checkPoint(point);
          entries.push({ event, point });
        } catch (error) {
          encodingError ??= error;
          unencodable.push(event);
        }
      }
      const refusals: DestinationRefusal[] = [];
      if (unencodable.length > 0) {
        const detail = encodingError instanceof Error ? encodingError.message : String(encodingError);
        refusals.push({ reason: "unencodable", count: unencodable.length, detail, events: unencodable });
      }
      // Two events of one series may hash to the same time; within the batch they are kept apart.
      const apart = keepTimesApart(entries);
      for (let start = 0; start < apart.length; start += maxBatchSize) {
        const chunk = apart.slice(start, start + maxBatchSize);
        try {
          refusals.push(...(await writeChunk(chunk)));
        } catch (error) {
          const unwritten = apart.slice(start).map((entry) => entry.event);
          throw new DestinationWriteError(NAME, unwritten, { cause: error });
        }
      }
      if (refusals.length === 0) return;
      const byReason = mergeByReason(refusals);
      const named = byReason.flatMap((refusal) => refusal.events);
      const cause = new Error(byReason.map((refusal) => `${refusal.reason}: ${refusal.detail}`).join("; "));
      throw new DestinationWriteError(NAME, named, { cause, refused: true, refusals: byReason });
    },
  };
}

/** One refusal per reason: counts added, named events joined, the first detail kept. */
function mergeByReason(refusals: readonly DestinationRefusal[]): DestinationRefusal[] {
  const merged = new Map<string, DestinationRefusal>();
  for (const refusal of refusals) {
    const known = merged.get(refusal.reason);
    merged.set(
      refusal.reason,
      known === undefined
        ? refusal
        : { ...known, count: known.count + refusal.count, events: [...known.events, ...refusal.events] },
    );
  }
  return [...merged.values()];
}
