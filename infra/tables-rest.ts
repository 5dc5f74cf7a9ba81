/**
 * DynamoDB tables of the management REST API.
 * - KeyValueTable: entries (pk "ns#<namespace>", sk key) and namespace markers (pk "namespaces",
 *   sk namespace); DynamoDB's TTL deletes expired entries eventually via `expiresAt` (seconds),
 *   reads filter on the exact `expiresAtMs` (core/adapters/aws/dynamo-key-value-store.ts).
 * - ScheduleTable: one item per schedule, keyed by `id` (core/adapters/aws/dynamo-schedule-store.ts),
 *   and one lock item per schedule (`id` "lease#<schedule id>") by which the on-prem agents agree
 *   on who starts each occurrence; DynamoDB's TTL on `expiresAt` deletes the lock of a deleted
 *   schedule (core/adapters/aws/dynamo-schedule-lease.ts).
 */
export const keyValueTable = new sst.aws.Dynamo("KeyValueTable", {
  fields: { pk: "string", sk: "string" },
  primaryIndex: { hashKey: "pk", rangeKey: "sk" },
  ttl: "expiresAt",
});

export const scheduleTable = new sst.aws.Dynamo("ScheduleTable", {
  fields: { id: "string" },
  primaryIndex: { hashKey: "id" },
  ttl: "expiresAt",
});
