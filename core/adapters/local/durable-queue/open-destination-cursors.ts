/**
 * The selected destinations' cursors as the durable audit log opens: the rules of
 * destination-selection.ts applied to the files of the queue directory, in an
 * order that leaves, after a crash at any step, files the next start reads the same way:
 * 1. The cursor files of selected destinations that have none (new ones, at the log's end; lost
 *    ones, at the oldest record) are written and synced before the manifest names them: a
 *    manifest naming a new destination without its cursor file would read as a lost cursor and
 *    hand it events that were not accepted for it.
 * 2. The manifest is replaced (write, fdatasync, rename) and its directory synced.
 * 3. The cursor files of destinations not selected are deleted after that: until then the old
 *    manifest still names them; after it, a file left behind is not in the manifest, so it is
 *    ignored and deleted at the next open.
 * Logged once, here: a WARN for each destination dropped with part of the log unwritten (an INFO
 * when it had written everything), a WARN for each lost cursor with what is read again, and a
 * WARN when the manifest cannot be read.
 */

import type { Logger } from "../../../ports.ts";
import { syncDirectory } from "../sync-directory.ts";
import { readCursorFiles, removeCursor, writeCursor } from "./cursor-files.ts";
import { manifestFile, readManifest, writeManifest } from "./destination-manifest.ts";
import { planSelection } from "./destination-selection.ts";

export interface OpenDestinationCursorsOptions {
  /** The queue directory (the manifest's). */
  directory: string;
  /** Its `cursors/` directory, which exists. */
  cursorDirectory: string;
  selected: readonly string[];
  /** Position of the oldest byte the log holds. */
  start: number;
  /** Position just past the last record. */
  end: number;
  logger: Logger;
}

/** Each selected destination's cursor; the files on disk agree with it once this resolves. */
export async function openDestinationCursors(
  options: OpenDestinationCursorsOptions,
): Promise<Map<string, number>> {
  const { directory, cursorDirectory, selected, start, end, logger } = options;
  const manifest = await readManifest(directory);
  const cursorFiles = await readCursorFiles(cursorDirectory);
  if (manifest.unreadable) {
    logger.warn(
      "Audit event queue: its list of destinations cannot be read; destinations with a cursor file are taken as the ones the log was written for",
      { file: manifestFile(directory) },
    );
  }
  const plan = planSelection({ selected, manifest: manifest.destinations, cursorFiles, start, end });

  for (const destination of plan.unpersisted)
    await writeCursor(cursorDirectory, destination, plan.cursors.get(destination) as number);
  if (plan.unpersisted.length > 0) await syncDirectory(cursorDirectory);
  if (plan.manifestChanged) {
    await writeManifest(directory, selected);
    await syncDirectory(directory);
  }
  for (const destination of plan.staleCursorFiles) await removeCursor(cursorDirectory, destination);
  if (plan.staleCursorFiles.length > 0) await syncDirectory(cursorDirectory);

  for (const destination of plan.fresh) {
    logger.info(
      "Audit event queue: destination selected for the first time; it starts with the events accepted from now on",
      {
        destination,
      },
    );
  }
  for (const { destination, unwrittenBytes } of plan.dropped) {
    const fields = { destination, unwrittenBytes };
    if (unwrittenBytes > 0)
      logger.warn(
        "Audit event queue: destination no longer selected; the part of the log it had not written is abandoned and no longer held for it",
        fields,
      );
    else
      logger.info("Audit event queue: destination no longer selected; it had written the whole log", fields);
  }
  for (const { destination, replayBytes } of plan.lost) {
    logger.warn(
      "Audit event queue: the cursor of a destination the log was written for is missing or unreadable; it reads the log again from its oldest record, so events it wrote may be written again",
      { destination, replayBytes },
    );
  }
  return plan.cursors;
}
