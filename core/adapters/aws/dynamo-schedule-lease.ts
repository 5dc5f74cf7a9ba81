/**
 * ScheduleLease in the DynamoDB schedule table (`cloud.scheduleTable`), so that agents sharing
 * the stored schedules start each occurrence once: one lock item per schedule,
 * `id = "lease#<scheduleId>"`, holding the latest claimed occurrence (`dueMs`) and its `owner`
 * (the agent's instance id and process id). A claim is one conditional `PutItem`, granted when no
 * lock exists, when the lock holds an older occurrence, or when it holds this occurrence for this
 * owner (a retried claim); otherwise DynamoDB answers ConditionalCheckFailed and the claim is
 * refused. Conditional writes on one item are serialised by DynamoDB, so of two agents claiming
 * the same occurrence exactly one wins, whatever their clocks say (the due time is computed from
 * the cron expression, not read from a clock).
 *
 * Why the schedule table: it is the table every agent firing these schedules already has, and
 * one item per schedule keeps it small; the schedule store skips lock items
 * (dynamo-schedule-store.ts). `expiresAt` (the table's TTL attribute, a day after the due time,
 * renewed by every claim) lets DynamoDB delete the lock of a deleted schedule; it never decides
 * a claim.
 */
import { type DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import type { ScheduleLease } from "../../ports.ts";
import { ScheduleLeaseError } from "../../schedules/index.ts";

export interface DynamoScheduleLeaseOptions {
  client: DynamoDBClient;
  /** The schedule table (hash key `id`, TTL attribute `expiresAt`). */
  tableName: string;
  /** Who claims: stable for this process, distinct from every other process. */
  owner: string;
}

/** Ids of lock items start with this; schedule ids (UUIDs) never do. */
export const SCHEDULE_LEASE_ID_PREFIX = "lease#";
const RETENTION_MS = 24 * 3600_000;

export function createDynamoScheduleLease(options: DynamoScheduleLeaseOptions): ScheduleLease {
  const { client, tableName, owner } = options;
  return {
    async claim(scheduleId, dueMs) {
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: {
              id: { S: `${SCHEDULE_LEASE_ID_PREFIX}${scheduleId}` },
              owner: { S: owner },
              dueMs: { N: String(dueMs) },
              expiresAt: { N: String(Math.ceil((dueMs + RETENTION_MS) / 1000)) },
            },
            ConditionExpression:
              "attribute_not_exists(id) OR dueMs < :due OR (dueMs = :due AND #owner = :owner)",
            ExpressionAttributeNames: { "#owner": "owner" },
            ExpressionAttributeValues: { ":due": { N: String(dueMs) }, ":owner": { S: owner } },
          }),
        );
        return true;
      } catch (error) {
        if ((error as { name?: unknown }).name === "ConditionalCheckFailedException") return false;
        throw new ScheduleLeaseError(`claiming schedule ${scheduleId} in table ${tableName} failed`, {
          cause: error,
        });
      }
    },
  };
}
