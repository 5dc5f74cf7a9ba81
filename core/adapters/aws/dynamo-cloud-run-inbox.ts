/**
 * CloudRunInbox (core/qlik-cloud/cloud-run-inbox.ts) on the Qlik Cloud table, for the cloud
 * functions: invocations run side by side in separate instances, so a run is taken once by a
 * conditional write, not by reading first. One item per tenant and reload id
 * (`pk = run#<tenant>`, `sk = reloadId`, qlik-cloud-table.ts):
 * - `take` puts a new run as pending, on condition that no live item is there; DynamoDB
 *   serialises conditional writes to one item, so of two deliveries arriving together in two
 *   instances exactly one is "new" (and is answered 2xx only once DynamoDB has stored it). The
 *   other adds its source to the item's set and learns from the set as it was whether it is a
 *   "duplicate" or, for a poll reading a run it found before, "seen";
 * - `handed` keeps the item without the run's content; every write sets `expiresAt` SEEN_FOR_MS
 *   ahead, as the local inbox keeps its records, and an item past it counts as gone even before
 *   DynamoDB's TTL deletes it;
 * - `pending` lists the tenant's runs taken but not handed on, left alone for `pendingAfterMs`
 *   after they were written: an invocation may still be handing them on until its time limit,
 *   and a run handed on twice would be alerted twice;
 * - `claim` gives a run still pending by its key and writes `writtenAtMs` again in the same
 *   conditional update (on condition that the item is live and pending), so that `pending` leaves
 *   it to the claiming invocation for another `pendingAfterMs`; a run handed on, unknown or
 *   expired fails the condition and is answered undefined, without a write.
 */
import {
  type AttributeValue,
  type DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  type QueryCommandOutput,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import type { Clock } from "../../ports.ts";
import type { CloudReloadRun } from "../../qlik-cloud/index.ts";
import { type CloudRunInbox, SEEN_FOR_MS } from "../../qlik-cloud/index.ts";
import { conditionFailed, QlikCloudTableError } from "./qlik-cloud-table.ts";

export interface DynamoCloudRunInboxOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly clock: Clock;
  /** How long after its last write a pending run is left to the invocation that took it. */
  readonly pendingAfterMs: number;
}

const keyOf = (tenant: string, reloadId: string) => ({
  pk: { S: `run#${tenant}` },
  sk: { S: reloadId },
});

const runKey = (run: CloudReloadRun) => keyOf(run.tenant, run.reloadId);

async function guard<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw new QlikCloudTableError(`DynamoDB Qlik Cloud inbox: ${what} failed`, { cause: error });
  }
}

function parseRun(item: Record<string, AttributeValue>): CloudReloadRun | undefined {
  const text = item.run?.S;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as CloudReloadRun;
  } catch {
    return undefined;
  }
}

export function createDynamoCloudRunInbox(options: DynamoCloudRunInboxOptions): CloudRunInbox {
  const { client, tableName, clock } = options;
  /** `writtenAtMs` and `expiresAt` of a write made now. */
  const stamps = () => {
    const now = clock.now();
    return {
      now,
      written: { N: String(now) },
      expires: { N: String(Math.ceil((now + SEEN_FOR_MS) / 1000)) },
    };
  };

  async function addSource(run: CloudReloadRun): Promise<"duplicate" | "seen"> {
    const { written, expires } = stamps();
    const answer = await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: runKey(run),
        UpdateExpression: "ADD #sources :source SET #written = :written, #expires = :expires",
        ExpressionAttributeNames: {
          "#sources": "sources",
          "#written": "writtenAtMs",
          "#expires": "expiresAt",
        },
        ExpressionAttributeValues: {
          ":source": { SS: [run.source] },
          ":written": written,
          ":expires": expires,
        },
        ReturnValues: "UPDATED_OLD",
      }),
    );
    const before = answer.Attributes?.sources?.SS ?? [];
    if (!before.includes(run.source)) return "duplicate";
    return run.source === "poll" ? "seen" : "duplicate";
  }

  return {
    take: (run) =>
      guard(`take of reload ${run.reloadId}`, async () => {
        const { now, written, expires } = stamps();
        try {
          await client.send(
            new PutItemCommand({
              TableName: tableName,
              Item: {
                ...runKey(run),
                state: { S: "pending" },
                sources: { SS: [run.source] },
                run: { S: JSON.stringify(run) },
                writtenAtMs: written,
                expiresAt: expires,
              },
              ConditionExpression: "attribute_not_exists(pk) OR expiresAt < :now",
              ExpressionAttributeValues: { ":now": { N: String(Math.floor(now / 1000)) } },
            }),
          );
          return "new";
        } catch (error) {
          if (!conditionFailed(error)) throw error;
        }
        return addSource(run);
      }),

    handed: (run) =>
      guard(`marking reload ${run.reloadId} handed on`, async () => {
        const { written, expires } = stamps();
        await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: runKey(run),
            UpdateExpression:
              "SET #state = :handed, #written = :written, #expires = :expires ADD #sources :source REMOVE #run",
            ExpressionAttributeNames: {
              "#state": "state",
              "#written": "writtenAtMs",
              "#expires": "expiresAt",
              "#sources": "sources",
              "#run": "run",
            },
            ExpressionAttributeValues: {
              ":handed": { S: "handed" },
              ":written": written,
              ":expires": expires,
              ":source": { SS: [run.source] },
            },
          }),
        );
      }),

    claim: (tenant, reloadId) =>
      guard(`claim of reload ${reloadId}`, async () => {
        const { now, written } = stamps();
        try {
          const answer = await client.send(
            new UpdateItemCommand({
              TableName: tableName,
              Key: keyOf(tenant, reloadId),
              UpdateExpression: "SET #written = :written",
              ConditionExpression: "#state = :pending AND expiresAt >= :now",
              ExpressionAttributeNames: { "#state": "state", "#written": "writtenAtMs" },
              ExpressionAttributeValues: {
                ":written": written,
                ":pending": { S: "pending" },
                ":now": { N: String(Math.floor(now / 1000)) },
              },
              ReturnValues: "ALL_NEW",
            }),
          );
          return answer.Attributes === undefined ? undefined : parseRun(answer.Attributes);
        } catch (error) {
          if (conditionFailed(error)) return undefined;
          throw error;
        }
      }),

    pending: (tenant) =>
      guard(`listing ${tenant}'s pending runs`, async () => {
        const before = clock.now() - options.pendingAfterMs;
        const runs: CloudReloadRun[] = [];
        let start: QueryCommandOutput["LastEvaluatedKey"];
        do {
          const page = await client.send(
            new QueryCommand({
              TableName: tableName,
              ConsistentRead: true,
              KeyConditionExpression: "pk = :pk",
              FilterExpression: "#state = :pending AND #written <= :before",
              ExpressionAttributeNames: { "#state": "state", "#written": "writtenAtMs" },
              ExpressionAttributeValues: {
                ":pk": { S: `run#${tenant}` },
                ":pending": { S: "pending" },
                ":before": { N: String(before) },
              },
              ExclusiveStartKey: start,
            }),
          );
          for (const item of page.Items ?? []) {
            const run = parseRun(item);
            if (run !== undefined) runs.push(run);
          }
          start = page.LastEvaluatedKey;
        } while (start !== undefined);
        return runs.sort((x, y) => Date.parse(x.receivedAt) - Date.parse(y.receivedAt));
      }),
  };
}
