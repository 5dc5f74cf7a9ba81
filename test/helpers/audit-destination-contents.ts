/**
 * What the local audit destinations hold, read back by their eventIds: Parquet files (DuckDB),
 * table files (QVD, the tests' own reader), objectData JSON files (by file name) and InfluxDB 1.x
 * points (the eventId field). Rows are listed one id per row, so a row written twice shows twice.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { Influxd } from "./influxd.ts";
import { readQvdBytes } from "./qvd-reader.ts";

export function filesUnder(directory: string, suffix: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The eventId of every row of every Parquet file under `directory` (hive-partitioned by date). */
export async function parquetEventIds(directory: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT eventId FROM read_parquet('${directory}/**/*.parquet', hive_partitioning = true)`,
    );
    return reader.getRows().map((row) => String(row[0]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The eventId of every row of every QVD file under `directory`. */
export function qvdEventIds(directory: string): string[] {
  const ids: string[] = [];
  for (const file of filesUnder(directory, ".qvd")) {
    const qvd = readQvdBytes(readFileSync(file));
    const column = qvd.fields.findIndex((field) => field.name === "eventId");
    for (const row of qvd.rows) ids.push(String(row[column]));
  }
  return ids;
}

/**
 * The eventIds named by the objectData files in `directory`
 * (`<stamp>_<eventId>_<correlationId>.json`); a file still being written (temporary name) does
 * not count. None while the directory does not exist: the destination makes it at its first write,
 * and a test polling for that write may look first.
 */
export function jsonEventIds(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.split("_")[1] ?? "");
}

/**
 * The eventId field values of `measurement` in `database`. A replayed event (same tags, and a
 * time made of its own millisecond and an offset from its eventId) overwrites its point: one
 * value per event point.
 */
export async function influxEventIds(
  influxd: Influxd,
  database: string,
  measurement = "audit_event",
): Promise<Set<string>> {
  return new Set(await influxEventIdRows(influxd, database, measurement));
}

/** The eventId field of every point of `measurement`, one per point (a point written twice counts once). */
export async function influxEventIdRows(
  influxd: Influxd,
  database: string,
  measurement = "audit_event",
): Promise<string[]> {
  const result = await influxd.query(`SELECT "eventId" FROM "${measurement}"`, database);
  const values = result.results[0]?.series?.[0]?.values ?? [];
  return values.map((value) => String(value[1]));
}
