/** fileOperations, keyValueStore, scheduler and cloud resource names. */
import * as v from "valibot";
import { DEFAULT_MAX_NAMESPACES, DEFAULT_MAX_TOTAL_BYTES } from "../../kv/key-value-limits.ts";
import {
  bool,
  int,
  nonEmptyStr,
  positiveInt,
  requiredStr,
  requiredText,
  section,
  str,
  stringList,
} from "./primitives.ts";

const dirPair = v.object({ fromDirectory: requiredStr, toDirectory: requiredStr });

export const fileOperationsSchema = section({
  copyApprovedDirectories: v.optional(v.array(dirPair), []),
  moveApprovedDirectories: v.optional(v.array(dirPair), []),
  deleteApprovedDirectories: stringList(),
  tableDataDirectory: str(""),
});

/** Above 128 MiB the files read at start (up to eight times the bytes stored) no longer fit the 1 GiB heap. */
const MAX_TOTAL_BYTES_CEILING = 128 * 1024 * 1024;

export const keyValueStoreSchema = section({
  enable: bool(true),
  maxKeysPerNamespace: positiveInt(1000),
  maxNamespaces: positiveInt(DEFAULT_MAX_NAMESPACES),
  maxTotalBytes: int(DEFAULT_MAX_TOTAL_BYTES, 1, MAX_TOTAL_BYTES_CEILING),
  storeFile: nonEmptyStr("./data/key-values.json"),
});

export const schedulerSchema = section({
  enable: bool(true),
  storeFile: nonEmptyStr("./data/schedules.yaml"),
});

export const cloudSchema = section({
  enable: bool(false),
  region: requiredText(),
  eventQueueUrl: str(""),
  rateLimitTable: str(""),
  keyValueTable: str(""),
  scheduleTable: str(""),
  bucketName: str(""),
  bucketPrefix: str(""),
});
