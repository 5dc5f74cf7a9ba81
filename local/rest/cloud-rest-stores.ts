/**
 * The REST API's stores in DynamoDB, for an on-prem agent sharing the cloud stores
 * (`cloud.enable` with `cloud.keyValueTable` / `cloud.scheduleTable`), and the lease in the
 * schedule table that lets exactly one of several agents start each occurrence of a shared
 * schedule (dynamo-schedule-lease.ts). rest-services.ts imports
 * this module only then, so the AWS SDK (about 20 MB of memory once loaded) stays out of every
 * other local process.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createDynamoKeyValueStore } from "../../core/adapters/aws/dynamo-key-value-store.ts";
import { createDynamoScheduleLease } from "../../core/adapters/aws/dynamo-schedule-lease.ts";
import { createDynamoScheduleStore } from "../../core/adapters/aws/dynamo-schedule-store.ts";
import type { Config } from "../../core/config/index.ts";
import type { KeyValueLimits } from "../../core/kv/key-value-limits.ts";
import type { Clock, KeyValueStore, ScheduleLease, ScheduleStore } from "../../core/ports.ts";

export interface CloudRestStores {
  /** Present when `cloud.keyValueTable` is set. */
  keyValues: KeyValueStore | undefined;
  /** Present when `cloud.scheduleTable` is set. */
  schedules: ScheduleStore | undefined;
  /** Present with `schedules`: claims an occurrence for `leaseOwner` in the same table. */
  scheduleLease: ScheduleLease | undefined;
  /** Releases the DynamoDB client's connections. */
  close(): void;
}

export function openCloudRestStores(
  cloud: Config["cloud"],
  options: KeyValueLimits & { clock: Clock; leaseOwner: string },
): CloudRestStores {
  const { leaseOwner, ...kvOptions } = options;
  const client = new DynamoDBClient({ region: cloud.region });
  const tableName = cloud.scheduleTable;
  return {
    keyValues:
      cloud.keyValueTable === ""
        ? undefined
        : createDynamoKeyValueStore({ client, tableName: cloud.keyValueTable, ...kvOptions }),
    schedules: tableName === "" ? undefined : createDynamoScheduleStore({ client, tableName }),
    scheduleLease:
      tableName === "" ? undefined : createDynamoScheduleLease({ client, tableName, owner: leaseOwner }),
    close: () => client.destroy(),
  };
}
