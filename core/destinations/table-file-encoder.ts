/** Turns a batch of audit rows into the bytes of one table file (Parquet, QVD). */
import type { AuditRow } from "../audit/audit-row.ts";

export interface TableFileMeta {
  /** Unique id of the batch; also in the file name. */
  batchId: string;
  flushedAt: Date;
}

export interface TableFileEncoder {
  /** File name extension without the dot: `parquet`, `qvd`. */
  extension: string;
  encode(rows: readonly AuditRow[], meta: TableFileMeta): Uint8Array;
}
