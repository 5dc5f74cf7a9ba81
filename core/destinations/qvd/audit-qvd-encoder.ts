/**
 * The tablefile destination's QVD encoding of audit rows: the same 25 columns as Parquet, with
 * `visible` as the Qlik boolean (-1 true, 0 false, NULL unknown) and `timestamp` as epoch ms.
 */

import { AUDIT_COLUMNS } from "../../audit/index.ts";
import type { TableFileEncoder } from "../../ports.ts";
import { nextTurn } from "../../shared/next-turn.ts";
import { encodeQvd } from "./qvd-encoder.ts";
import type { QvdValue } from "./qvd-symbols.ts";

export const auditQvdEncoder: TableFileEncoder = {
  extension: "qvd",
  async encode(rows, meta) {
    const columns = AUDIT_COLUMNS.map(({ name }) => ({
      name,
      values: rows.map((row): QvdValue => {
        const value = row[name];
        if (typeof value === "boolean") return value ? -1 : 0;
        return value;
      }),
    }));
    // The columns took a piece of their own (the encoder gives way between its pieces too).
    await nextTurn();
    return encodeQvd({
      tableName: "audit_events",
      createdAt: meta.flushedAt,
      creatorDoc: meta.batchId,
      lineage: "steward audit events;",
      columns,
    });
  },
};
