/** An in-memory DynamoDB stand-in (dynalite) on a loopback ephemeral port. */

import type { AddressInfo } from "node:net";
import {
  CreateTableCommand,
  DynamoDBClient,
  type KeySchemaElement,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import dynalite from "dynalite";

export interface DynaliteServer {
  endpoint: string;
  client: DynamoDBClient;
  /** Creates a table whose key attributes are all strings; returns its name. */
  createTable(name: string, hashKey: string, rangeKey?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startDynalite(): Promise<DynaliteServer> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  return {
    endpoint,
    client,
    async createTable(name, hashKey, rangeKey) {
      const keys: KeySchemaElement[] = [{ AttributeName: hashKey, KeyType: "HASH" }];
      if (rangeKey !== undefined) keys.push({ AttributeName: rangeKey, KeyType: "RANGE" });
      await client.send(
        new CreateTableCommand({
          TableName: name,
          KeySchema: keys,
          AttributeDefinitions: keys.map((key) => ({ AttributeName: key.AttributeName, AttributeType: "S" })),
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
      await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: name });
      return name;
    },
    async close() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
