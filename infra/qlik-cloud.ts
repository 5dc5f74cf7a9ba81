/**
 * The Qlik Cloud tenants in the cloud (docs/qlik-cloud.md, "In the cloud"):
 * - the Qlik Cloud table: the runs each function took (stored before a webhook's 2xx, taken once
 *   by conditional writes) and the polling cursors (core/adapters/aws/qlik-cloud-table.ts);
 *   DynamoDB's TTL on `expiresAt` deletes runs eight days after their last write;
 * - the webhook function on `POST /api/v1/qlik-cloud/webhooks/{tenant}` of the shared API (an
 *   HTTPS host name, which Qlik requires), with its own reserved concurrency so that a flood of
 *   deliveries starves neither API;
 * - the polling function, run by an EventBridge schedule every STEWARD_QLIK_CLOUD_POLL_MINUTES at
 *   the same minutes of every hour, handed EventBridge's own event (its `time` names the slot the
 *   tenants' lease is claimed for: functions/qlik-cloud/poll-lambda.ts) rather than SST's empty
 *   one. Its time limit, 50 s, is shorter than the shortest slot, so two slots' invocations never
 *   poll at once; two instances at most, as a slot's event delivered twice needs.
 * Both count the alerts' rate-limit windows in the rate-limit table, shared by every instance.
 * Each may do on its tables exactly what its code sends (infra/links.ts).
 */
import { api } from "./api.ts";
import { functionDefaults } from "./functions.ts";
import { qlikCloudPollMinutes, reservedConcurrency } from "./limits.ts";
import { rateLimitTable } from "./tables.ts";
import { scheduleTable } from "./tables-rest.ts";

export const qlikCloudTable = new sst.aws.Dynamo("QlikCloudTable", {
  fields: { pk: "string", sk: "string" },
  primaryIndex: { hashKey: "pk", rangeKey: "sk" },
  ttl: "expiresAt",
});

export const qlikCloudWebhookRoute = "POST /api/v1/qlik-cloud/webhooks/{tenant}";

export const qlikCloudWebhookFunction = new sst.aws.Function("QlikCloudWebhook", {
  ...functionDefaults,
  handler: "functions/qlik-cloud/webhook-function.handler",
  link: [...functionDefaults.link, qlikCloudTable, rateLimitTable],
  permissions: [
    // core/adapters/aws/dynamo-cloud-run-inbox.ts
    {
      actions: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
      resources: [qlikCloudTable.arn],
    },
    // core/adapters/aws/dynamo-rate-limit-store.ts: the alerts' rate-limit windows
    { actions: ["dynamodb:UpdateItem"], resources: [rateLimitTable.arn] },
  ],
  concurrency: { reserved: reservedConcurrency.qlikCloudWebhook },
});

api.route(qlikCloudWebhookRoute, qlikCloudWebhookFunction.arn);

export const qlikCloudPollFunction = new sst.aws.Function("QlikCloudPoll", {
  ...functionDefaults,
  handler: "functions/qlik-cloud/poll-function.handler",
  timeout: "50 seconds",
  environment: { STEWARD_QLIK_CLOUD_POLL_MINUTES: String(qlikCloudPollMinutes) },
  link: [...functionDefaults.link, qlikCloudTable, scheduleTable, rateLimitTable],
  permissions: [
    // core/adapters/aws/dynamo-cloud-run-inbox.ts, dynamo-cloud-cursor-store.ts
    {
      actions: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query", "dynamodb:GetItem"],
      resources: [qlikCloudTable.arn],
    },
    // core/adapters/aws/dynamo-schedule-lease.ts
    { actions: ["dynamodb:PutItem"], resources: [scheduleTable.arn] },
    // core/adapters/aws/dynamo-rate-limit-store.ts: the alerts' rate-limit windows
    { actions: ["dynamodb:UpdateItem"], resources: [rateLimitTable.arn] },
  ],
  concurrency: { reserved: 2 },
});

export const qlikCloudPollSchedule = new sst.aws.Cron("QlikCloudPollSchedule", {
  schedule: qlikCloudPollMinutes === 60 ? "cron(0 * * * ? *)" : `cron(0/${qlikCloudPollMinutes} * * * ? *)`,
  function: qlikCloudPollFunction.arn,
  transform: {
    target: (args) => {
      args.input = undefined;
    },
  },
});
