/**
 * Parquet encoding of audit rows with hyparquet-writer: Snappy, every column OPTIONAL, strings
 * as UTF8 BYTE_ARRAY, `timestamp` as INT64 TIMESTAMP(MILLIS, UTC) so that DuckDB reads a
 * TIMESTAMP WITH TIME ZONE, integers as INT64.
 */

import {
  type BasicType,
  type ColumnSource,
  parquetWriteBuffer,
  type SchemaElement,
  schemaFromColumnData,
} from "hyparquet-writer";
import { AUDIT_COLUMNS, type AuditColumnKind, type AuditRow } from "../../audit/index.ts";
import type { TableFileEncoder } from "../../ports.ts";
import { SERVICE_NAME, SERVICE_VERSION } from "../../version.ts";

export class ParquetEncodeError extends Error {
  override name = "ParquetEncodeError";
}

const BASIC_TYPES: Record<Exclude<AuditColumnKind, "timestamp">, BasicType> = {
  string: "STRING",
  integer: "INT64",
  boolean: "BOOLEAN",
};

export const auditParquetEncoder: TableFileEncoder = {
  extension: "parquet",
  encode(rows, meta) {
    const columnData: ColumnSource[] = AUDIT_COLUMNS.map(({ name, kind }) => {
      const data = rows.map((row) => cellValue(row, name, kind)) as ColumnSource["data"];
      return kind === "timestamp" ? { name, data } : { name, data, type: BASIC_TYPES[kind], nullable: true };
    });
    const timestampElement: SchemaElement = {
      name: "timestamp",
      type: "INT64",
      repetition_type: "OPTIONAL",
      logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
    };
    try {
      const schema = schemaFromColumnData({ columnData, schemaOverrides: { timestamp: timestampElement } });
      const buffer = parquetWriteBuffer({
        // hyparquet-writer takes either typed columns or a schema: the schema carries the types.
        columnData: columnData.map(({ name, data }) => ({ name, data })),
        schema,
        codec: "SNAPPY",
        createdBy: `${SERVICE_NAME} ${SERVICE_VERSION}`,
        kvMetadata: [
          { key: "steward.batchId", value: meta.batchId },
          { key: "steward.flushedAt", value: meta.flushedAt.toISOString() },
        ],
      });
      return new Uint8Array(buffer);
    } catch (error) {
      throw new ParquetEncodeError(`encoding ${rows.length} audit rows as Parquet failed`, { cause: error });
    }
  },
};

function cellValue(row: AuditRow, name: keyof AuditRow, kind: AuditColumnKind): unknown {
  const value = row[name];
  if (value === null) return null;
  if (kind === "timestamp" || kind === "integer") return BigInt(value as number);
  return value;
}
