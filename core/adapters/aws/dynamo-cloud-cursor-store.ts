/**
 * CloudCursorStore on the Qlik Cloud table, for the scheduled polling function: one item per
 * tenant and input (`pk = cursor#<tenant>`, `sk = reloads | audits`, qlik-cloud-table.ts) holding
 * how far that input has read (`readUpToMs`). Reads are consistent, so an invocation reads what
 * the one before it wrote. An item that is missing or unreadable reads as no cursor: the input
 * then reads back `poll.initialHours`, and the inbox keeps what it finds again from being handed
 * on twice. Cursors do not expire.
 */
import { type DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import type { CloudCursorStore } from "../../ports.ts";
import { QlikCloudTableError } from "./qlik-cloud-table.ts";

export interface DynamoCloudCursorStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
}

const cursorKey = (tenant: string, input: string) => ({ pk: { S: `cursor#${tenant}` }, sk: { S: input } });

export function createDynamoCloudCursorStore(options: DynamoCloudCursorStoreOptions): CloudCursorStore {
  const { client, tableName } = options;
  return {
    async read(tenant, input) {
      let found: string | undefined;
      try {
        const answer = await client.send(
          new GetItemCommand({ TableName: tableName, Key: cursorKey(tenant, input), ConsistentRead: true }),
        );
        found = answer.Item?.readUpToMs?.N;
      } catch (error) {
        throw new QlikCloudTableError(`DynamoDB Qlik Cloud cursors: reading ${tenant}'s ${input} failed`, {
          cause: error,
        });
      }
      const ms = found === undefined ? Number.NaN : Number(found);
      return Number.isFinite(ms) ? ms : undefined;
    },
    async write(tenant, input, readUpToMs) {
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: { ...cursorKey(tenant, input), readUpToMs: { N: String(readUpToMs) } },
          }),
        );
      } catch (error) {
        throw new QlikCloudTableError(`DynamoDB Qlik Cloud cursors: writing ${tenant}'s ${input} failed`, {
          cause: error,
        });
      }
    },
  };
}
