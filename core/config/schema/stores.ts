/** fileOperations, keyValueStore, scheduler and cloud resource names. */
import * as v from "valibot";
import {
  bool,
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

export const keyValueStoreSchema = section({
  enable: bool(true),
  maxKeysPerNamespace: positiveInt(1000),
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
