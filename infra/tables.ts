/**
 * DynamoDB tables. Rate-limit counters: one item per client key and window (`pk`), deleted by
 * DynamoDB's TTL on `expiresAt` (core/adapters/aws/dynamo-rate-limit-store.ts).
 */
export const rateLimitTable = new sst.aws.Dynamo("RateLimitTable", {
  fields: { pk: "string" },
  primaryIndex: { hashKey: "pk" },
  ttl: "expiresAt",
});
