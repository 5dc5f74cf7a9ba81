/**
 * The json destination with `objectdata.enable`: one pretty-printed JSON file per event that
 * carries `payload.event.objectData`, named `<YYYYMMDDTHHmmss.mmmZ>_<eventId>_<correlationId>.json`
 * and shaped as Butler SOS writes them. Events without objectData are skipped (and counted so,
 * not as written: the batcher asks `skips`). A batch's files are
 * written a few at a time, side by side; a file that fails fails only its event (the batch is
 * retried for those). An event whose document cannot be encoded (objectData nested too deeply
 * for JSON.stringify) is refused on its own (`unencodable`, unwritten-events.ts). The object store
 * confines every file to the export directory.
 */

import {
  type AcceptedEvent,
  type AuditFacts,
  carriesObjectData,
  extractAuditFacts,
  type StaticTag,
  staticTagsObject,
} from "../audit/index.ts";
import type { AuditDestination, Logger, ObjectStore } from "../ports.ts";
import { UnwrittenEvents } from "./unwritten-events.ts";

export interface ObjectDataDestinationOptions {
  store: ObjectStore;
  staticTags: readonly StaticTag[];
  logger: Logger;
}

export function createObjectDataDestination({
  store,
  staticTags,
  logger,
}: ObjectDataDestinationOptions): AuditDestination {
  const tags = staticTagsObject(staticTags);
  return {
    name: "json",
    skips: { why: "no objectData", event: (event) => !carriesObjectData(event) },
    async write(batch) {
      const unwritten = new UnwrittenEvents("json");
      const files = batch.events.filter(carriesObjectData);
      let next = 0;
      const writeNext = async (): Promise<void> => {
        while (next < files.length) {
          const event = files[next++] as AcceptedEvent;
          let key: string;
          let text: string;
          try {
            const facts = extractAuditFacts(event);
            key = objectDataFileName(facts);
            text = `${JSON.stringify(objectDataDocument(facts, tags), null, 2)}\n`;
          } catch (error) {
            // E.g. a RangeError from JSON.stringify of objectData nested too deeply: this event only.
            unwritten.unencodable(event, error);
            continue;
          }
          try {
            await store.put(key, text);
            logger.verbose("wrote objectData", { key });
          } catch (error) {
            unwritten.outage([event], error);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, files.length) }, writeNext));
      unwritten.throwIfAny();
    },
  };
}

/** Files one batch writes at once: creating a file costs the disk more wall time than CPU. */
const FILES_IN_FLIGHT = 8;

export function objectDataFileName(facts: AuditFacts): string {
  const stamp =
    facts.timestampMs === null
      ? "invalid_timestamp"
      : new Date(facts.timestampMs).toISOString().replace(/[-:]/g, "");
  return `${stamp}_${sanitiseNamePart(facts.eventId)}_${sanitiseNamePart(facts.correlationId)}.json`;
}

function sanitiseNamePart(value: string | null): string {
  const clean = (value ?? "").replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128);
  return clean === "" ? "none" : clean;
}

function objectDataDocument(facts: AuditFacts, tags: Record<string, string> | null) {
  return {
    eventId: facts.eventId,
    correlationId: facts.correlationId,
    timestamp: facts.timestampRaw,
    eventType: facts.eventType,
    user: facts.user,
    userDirectory: facts.userDirectory,
    userId: facts.userId,
    appId: facts.appId,
    appName: facts.appName,
    sheetId: facts.sheetId,
    sheetName: facts.sheetName,
    objectId: facts.objectId,
    objectType: facts.objectType,
    selectionTxnId: facts.selectionTxnId,
    durationMs: facts.durationMs,
    visible: facts.visible,
    enteredAt: facts.enteredAt,
    leftAt: facts.leftAt,
    dataStateId: facts.dataStateId,
    screenshotUrl: facts.screenshotUrl,
    // Steward does not download screenshots (see AuditRow.screenshotSavedPaths).
    screenshotSavedPaths: null,
    selectionDetails: facts.selectionDetails,
    objectData: facts.objectData,
    tags,
  };
}
