/**
 * Crash recovery of the last segment as the log opens. A record torn by a crash (a write cut
 * short) or corrupt at the end of the log was never synced, so never acknowledged: it is cut off
 * with a WARN. Zeros after the last record are the active segment's zero-filling (no record has
 * length 0) and are cut off silently.
 */
import { readFile, truncate } from "node:fs/promises";
import type { Logger } from "../../../ports.ts";
import { decodeRecords } from "./record-format.ts";

export interface RecoveredSegment {
  /** Bytes of whole, valid records at the start of the segment: where the next record goes. */
  validEnd: number;
  /** Something was cut off: the file must be synced before anything is written after it. */
  cut: boolean;
}

export async function recoverTornTail(path: string, name: string, logger: Logger): Promise<RecoveredSegment> {
  const content = await readFile(path);
  const recovered = decodeRecords(content);
  const zeroTail =
    recovered.stop === "corrupt" && content.subarray(recovered.validEnd).every((byte) => byte === 0);
  if (recovered.stop !== "end" && !zeroTail) {
    logger.warn("Audit event queue: skipped a torn or corrupt record at the end of the log", {
      segment: name,
      offset: recovered.validEnd,
      bytesSkipped: content.length - recovered.validEnd,
      reason: recovered.stop === "partial" ? "incomplete record (a write cut short)" : "checksum mismatch",
    });
  }
  if (recovered.stop !== "end") await truncate(path, recovered.validEnd);
  return { validEnd: recovered.validEnd, cut: recovered.stop !== "end" };
}
