/**
 * The audit event ingest function and its routes, linked to the queue and the rate-limit table,
 * on which it may only send messages and count (infra/links.ts).
 * One function serves every ingest route (routed by its ARN): a function per route would mean a
 * bundle, a log group, an alarm and a cold start per route. `/documentation/json` is not routed
 * here: on the shared API Gateway the REST function serves the one document covering both APIs;
 * the ingest app still serves its own locally.
 */
import { api } from "./api.ts";
import { functionDefaults } from "./functions.ts";
import { reservedConcurrency } from "./limits.ts";
import { auditEventQueue } from "./queue.ts";
import { rateLimitTable } from "./tables.ts";

export const auditIngestRoutes = [
  "POST /api/v1/audit-event",
  "OPTIONS /api/v1/audit-event",
  "GET /api/v1/test-connection",
] as const;

export const auditIngestFunction = new sst.aws.Function("AuditIngest", {
  ...functionDefaults,
  handler: "functions/audit-ingest/handler.handler",
  link: [...functionDefaults.link, auditEventQueue, rateLimitTable],
  permissions: [
    // core/adapters/aws/sqs-event-queue.ts
    { actions: ["sqs:SendMessage"], resources: [auditEventQueue.arn] },
    // core/adapters/aws/dynamo-rate-limit-store.ts
    { actions: ["dynamodb:UpdateItem"], resources: [rateLimitTable.arn] },
  ],
  concurrency: { reserved: reservedConcurrency.ingest },
});

for (const route of auditIngestRoutes) api.route(route, auditIngestFunction.arn);
