/**
 * ScheduleStore on a DynamoDB table keyed by the string attribute `id`; one item per schedule,
 * members as attributes (tags as a list). `list` scans and sorts by creation time then id. The
 * table also holds one lock item per schedule (dynamo-schedule-lease.ts, ids `lease#…`): the store
 * never lists, reads or deletes them.
 */
import {
  type AttributeValue,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
} from "@aws-sdk/client-dynamodb";
import type { Schedule, ScheduleStore } from "../../ports.ts";
import { byCreation, readStoredSchedule, ScheduleStoreError } from "../../schedules/index.ts";
import { SCHEDULE_LEASE_ID_PREFIX } from "./dynamo-schedule-lease.ts";

export interface DynamoScheduleStoreOptions {
  client: DynamoDBClient;
  tableName: string;
}

type Item = Record<string, AttributeValue>;

const isLeaseId = (id: string | undefined) => id?.startsWith(SCHEDULE_LEASE_ID_PREFIX) === true;

function toItem(schedule: Schedule): Item {
  return {
    id: { S: schedule.id },
    created: { S: schedule.created },
    name: { S: schedule.name },
    cronSchedule: { S: schedule.cronSchedule },
    timezone: { S: schedule.timezone },
    platformTaskId: { S: schedule.platformTaskId },
    startupState: { S: schedule.startupState },
    tags: { L: schedule.tags.map((tag) => ({ S: tag })) },
    lastKnownState: { S: schedule.lastKnownState },
  };
}

function fromItem(item: Item): Schedule {
  const plain: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) {
    plain[name] = value.L !== undefined ? value.L.map((entry) => entry.S) : value.S;
  }
  const result = readStoredSchedule(plain);
  if (!result.ok)
    throw new ScheduleStoreError(`Stored schedule ${String(plain.id)} is invalid: ${result.problem}`);
  return result.schedule;
}

export function createDynamoScheduleStore(options: DynamoScheduleStoreOptions): ScheduleStore {
  const { client, tableName } = options;

  async function guard<T>(what: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof ScheduleStoreError) throw error;
      throw new ScheduleStoreError(`DynamoDB schedule store: ${what} failed`, { cause: error });
    }
  }

  return {
    list: () =>
      guard("list", async () => {
        const schedules: Schedule[] = [];
        let startKey: Item | undefined;
        do {
          const page = await client.send(
            new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
          );
          for (const item of page.Items ?? []) if (!isLeaseId(item.id?.S)) schedules.push(fromItem(item));
          startKey = page.LastEvaluatedKey;
        } while (startKey !== undefined);
        return schedules.sort(byCreation);
      }),
    get: (id) =>
      guard("get", async () => {
        if (isLeaseId(id)) return undefined;
        const result = await client.send(
          new GetItemCommand({ TableName: tableName, Key: { id: { S: id } }, ConsistentRead: true }),
        );
        return result.Item === undefined ? undefined : fromItem(result.Item);
      }),
    put: (schedule) =>
      guard("put", async () => {
        await client.send(new PutItemCommand({ TableName: tableName, Item: toItem(schedule) }));
      }),
    delete: (id) =>
      guard("delete", async () => {
        if (isLeaseId(id)) return false;
        const result = await client.send(
          new DeleteItemCommand({ TableName: tableName, Key: { id: { S: id } }, ReturnValues: "ALL_OLD" }),
        );
        return result.Attributes !== undefined;
      }),
    close: async () => {},
  };
}
