/**
 * The REST API's stores in DynamoDB, for an on-prem agent sharing the cloud stores
 * (`cloud.enable` with `cloud.keyValueTable` / `cloud.scheduleTable`). rest-services.ts imports
 * this module only then, so the AWS SDK (about 20 MB of memory once loaded) stays out of every
 * other local process.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createDynamoKeyValueStore } from "../../core/adapters/aws/dynamo-key-value-store.ts";
import { createDynamoScheduleStore } from "../../core/adapters/aws/dynamo-schedule-store.ts";
import type { Config } from "../../core/config/index.ts";
import type { Clock, KeyValueStore, ScheduleStore } from "../../core/ports.ts";

export interface CloudRestStores {
  /** Present when `cloud.keyValueTable` is set. */
  keyValues: KeyValueStore | undefined;
  /** Present when `cloud.scheduleTable` is set. */
  schedules: ScheduleStore | undefined;
  /** Releases the DynamoDB client's connections. */
  close(): void;
}

export function openCloudRestStores(
  cloud: Config["cloud"],
  options: { clock: Clock; maxKeysPerNamespace: number },
): CloudRestStores {
  const client = new DynamoDBClient({ region: cloud.region });
  return {
    keyValues:
      cloud.keyValueTable === ""
        ? undefined
        : createDynamoKeyValueStore({ client, tableName: cloud.keyValueTable, ...options }),
    schedules:
      cloud.scheduleTable === ""
        ? undefined
        : createDynamoScheduleStore({ client, tableName: cloud.scheduleTable }),
    close: () => client.destroy(),
  };
}
