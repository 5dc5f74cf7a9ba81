/**
 * timeseriesdbConfig: the time-series database (v1, v2 or v3). Only the vNConfig block selected by
 * `version` is validated (the gate lives in ../gates.ts), so the others may hold placeholders.
 * `tls` (HTTPS) is validated only when its `enable` is true; its CA file is read once at start
 * (and checked by check-config).
 */
import * as v from "valibot";
import {
  bool,
  filePath,
  host,
  int,
  nonEmptyStr,
  port,
  requiredText,
  retentionDuration,
  section,
  str,
} from "./primitives.ts";

export const TIMESERIESDB_VERSIONS = [1, 2, 3] as const;
export type TimeseriesdbVersion = (typeof TIMESERIESDB_VERSIONS)[number];

export const timeseriesdbSchema = section({
  enable: bool(false),
  host: host("localhost"),
  port: port(8086),
  version: v.optional(v.picklist(TIMESERIESDB_VERSIONS, "must be 1, 2 or 3"), 3),
  maxBatchSize: int(1000, 1, 10000),
  tls: section({ enable: bool(false), caFile: filePath(), rejectUnauthorized: bool(true) }),
  v1Config: section({
    auth: section({ enable: bool(false), username: requiredText(), password: str("") }),
    dbName: requiredText(),
    retentionPolicy: section({ name: nonEmptyStr("10d"), duration: retentionDuration("10d") }),
  }),
  v2Config: section({
    org: requiredText(),
    bucket: requiredText(),
    description: str("Steward metrics"),
    token: requiredText(),
    retentionDuration: retentionDuration("10d"),
  }),
  v3Config: section({
    database: requiredText(),
    description: str("Steward metrics"),
    token: requiredText(),
    retentionDuration: retentionDuration("10d"),
    writeTimeout: int(10000, 1000),
    queryTimeout: int(60000, 1000),
  }),
  includeFields: section({ activeDocs: bool(false), loadedDocs: bool(false), inMemoryDocs: bool(false) }),
});
