/**
 * Where each selected destination starts reading the durable audit log when it opens, so that an
 * event goes to the destinations selected when it was accepted and to no others, also after a
 * restart with another selection. The log keeps a manifest: the destinations it was written for
 * (those selected when it was last opened). Against it:
 * - A destination in the manifest resumes at its cursor. If its cursor file is missing or
 *   unreadable, the cursor is *lost*: it reads again from the oldest record still held — it may
 *   write some events twice, never miss one (at least once).
 * - A destination not in the manifest is *new*: it starts at the log's end, with the events
 *   accepted from then on.
 * - A destination in the manifest that is no longer selected is *dropped*: its cursor goes, so it
 *   no longer holds the log back, and what it had not written is abandoned (the caller says how
 *   much); selected again later it is new.
 * A log without a manifest (written by the version before manifests, or a directory never opened)
 * takes the destinations that have a cursor file as the ones it was written for. If none has one,
 * every selected destination is taken as known and reads from the oldest record: that version gave
 * every selected destination every record and wrote a cursor only once a destination had written
 * something, so a destination without one may still be owed the whole log. When in doubt, deliver
 * again.
 */
import { clampCursor } from "./log-positions.ts";

export interface SelectionInput {
  /** The destinations selected now. */
  selected: readonly string[];
  /** The manifest's destinations; undefined when the log has none (or it cannot be read). */
  manifest: readonly string[] | undefined;
  /** Each cursor file by destination, with its position (undefined: the file cannot be read). */
  cursorFiles: ReadonlyMap<string, number | undefined>;
  /** Position of the oldest byte the log still holds. */
  start: number;
  /** Position just past the last record. */
  end: number;
}

export interface SelectionPlan {
  /** Where each selected destination starts. */
  cursors: Map<string, number>;
  /** Selected destinations that are new (they start at the end). */
  fresh: string[];
  /**
   * Selected destinations without a readable cursor file (the new ones and those whose cursor was
   * lost): theirs is written before the manifest, so that a destination the manifest names always
   * has one, and a missing one means it was lost.
   */
  unpersisted: string[];
  /** Selected destinations whose cursor was lost, with the bytes they read again. */
  lost: Array<{ destination: string; replayBytes: number }>;
  /** Destinations no longer selected, with the bytes of the log they leave unwritten. */
  dropped: Array<{ destination: string; unwrittenBytes: number }>;
  /** Cursor files of destinations not selected: deleted once the manifest is written. */
  staleCursorFiles: string[];
  /** The manifest differs from the selection (or is missing) and is written again. */
  manifestChanged: boolean;
}

/** The destinations the log was written for, as the header describes. */
function knownDestinations(input: SelectionInput): ReadonlySet<string> {
  if (input.manifest !== undefined) return new Set(input.manifest);
  if (input.cursorFiles.size > 0) return new Set(input.cursorFiles.keys());
  return new Set(input.selected);
}

export function planSelection(input: SelectionInput): SelectionPlan {
  const { selected, cursorFiles, start, end } = input;
  const known = knownDestinations(input);
  const chosen = new Set(selected);
  const plan: SelectionPlan = {
    cursors: new Map(),
    fresh: [],
    unpersisted: [],
    lost: [],
    dropped: [],
    staleCursorFiles: [...cursorFiles.keys()].filter((destination) => !chosen.has(destination)),
    manifestChanged:
      input.manifest === undefined ||
      input.manifest.length !== chosen.size ||
      input.manifest.some((destination) => !chosen.has(destination)),
  };
  for (const destination of chosen) {
    const stored = cursorFiles.get(destination);
    if (stored === undefined) plan.unpersisted.push(destination);
    if (!known.has(destination)) {
      plan.fresh.push(destination);
      plan.cursors.set(destination, end);
      continue;
    }
    const position = clampCursor(stored, start, end);
    plan.cursors.set(destination, position);
    if (stored === undefined && end > position) plan.lost.push({ destination, replayBytes: end - position });
  }
  for (const destination of known) {
    if (chosen.has(destination)) continue;
    const unwrittenBytes = end - clampCursor(cursorFiles.get(destination), start, end);
    plan.dropped.push({ destination, unwrittenBytes });
  }
  return plan;
}
