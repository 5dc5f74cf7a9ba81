/**
 * The Qlik Cloud tenants in the cloud (docs/qlik-cloud.md, "In the cloud"):
 * - the Qlik Cloud table: the runs each function took (stored before a webhook's 2xx, taken once
 *   by conditional writes) and the polling cursors (core/adapters/aws/qlik-cloud-table.ts);
 *   DynamoDB's TTL on `expiresAt` deletes runs eight days after their last write;
 * - the webhook function on `POST /api/v1/qlik-cloud/webhooks/{tenant}` of the shared API (an
 *   HTTPS host name, which Qlik requires), with its own reserved concurrency so that a flood of
 *   deliveries starves neither API. It stores each run, sends its key to the runs' queue and
 *   answers: it hands nothing on, so it needs neither the alerts nor the rate-limit table;
 * - the runs' queue and the hand-on function subscribed to it, which hands on each run the
 *   webhook stored, as the audit queue and its consumer do (infra/queue.ts, consumer.ts): partial
 *   batch responses, so only failed messages are received again, and to the dead-letter queue
 *   (kept 14 days, alarmed in infra/alarms.ts) after 5 receives; a visibility timeout six times
 *   the function's, as AWS recommends for Lambda event sources. Batches of 10 without a batching
 *   window, so that an alert waits for no other run; two instances at once, the least an event
 *   source mapping polls with. Its time limit, 45 s, is shorter than the time a claimed run is
 *   left to it before the poll hands it on (PENDING_AFTER_MS, 60 s,
 *   functions/qlik-cloud/cloud-qlik-input.ts);
 * - the polling function, run by an EventBridge schedule every STEWARD_QLIK_CLOUD_POLL_MINUTES at
 *   the same minutes of every hour, handed EventBridge's own event (its `time` names the slot the
 *   tenants' lease is claimed for: functions/qlik-cloud/poll-lambda.ts) rather than SST's empty
 *   one. Its time limit, 50 s, is shorter than the shortest slot, so two slots' invocations never
 *   poll at once; two instances at most, as a slot's event delivered twice needs.
 * The hand-on and polling functions count the alerts' rate-limit windows in the rate-limit
 * table, shared by every instance. Each function may do on its tables and queue exactly what
 * its code sends (infra/links.ts).
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

export const qlikCloudRunDlq = new sst.aws.Queue("QlikCloudRunDlq", {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 60 * 60 } },
});

export const qlikCloudRunQueue = new sst.aws.Queue("QlikCloudRunQueue", {
  visibilityTimeout: "270 seconds",
  dlq: { queue: qlikCloudRunDlq.arn, retry: 5 },
});

/** The actions of core/adapters/aws/dynamo-cloud-run-inbox.ts on the Qlik Cloud table. */
const inboxActions = ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"];

export const qlikCloudWebhookRoute = "POST /api/v1/qlik-cloud/webhooks/{tenant}";

export const qlikCloudWebhookFunction = new sst.aws.Function("QlikCloudWebhook", {
  ...functionDefaults,
  handler: "functions/qlik-cloud/webhook-function.handler",
  link: [...functionDefaults.link, qlikCloudTable, qlikCloudRunQueue],
  permissions: [
    // core/adapters/aws/dynamo-cloud-run-inbox.ts
    { actions: inboxActions, resources: [qlikCloudTable.arn] },
    // core/adapters/aws/sqs-cloud-run-queue.ts
    { actions: ["sqs:SendMessage"], resources: [qlikCloudRunQueue.arn] },
  ],
  concurrency: { reserved: reservedConcurrency.qlikCloudWebhook },
});

api.route(qlikCloudWebhookRoute, qlikCloudWebhookFunction.arn);

/** Instances of the hand-on function at once, and batches its queue subscription polls at once. */
const handOnConcurrency = 2;

export const qlikCloudHandOnFunction = new sst.aws.Function("QlikCloudHandOn", {
  ...functionDefaults,
  handler: "functions/qlik-cloud/hand-on-function.handler",
  timeout: "45 seconds",
  link: [...functionDefaults.link, qlikCloudTable, rateLimitTable],
  permissions: [
    // core/adapters/aws/dynamo-cloud-run-inbox.ts
    { actions: inboxActions, resources: [qlikCloudTable.arn] },
    // core/adapters/aws/dynamo-rate-limit-store.ts: the alerts' rate-limit windows
    { actions: ["dynamodb:UpdateItem"], resources: [rateLimitTable.arn] },
    // the queue subscription's poller
    {
      actions: ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
      resources: [qlikCloudRunQueue.arn],
    },
  ],
  concurrency: { reserved: handOnConcurrency },
});

export const qlikCloudHandOn = qlikCloudRunQueue.subscribe(qlikCloudHandOnFunction.arn, {
  batch: { size: 10, partialResponses: true },
  transform: {
    eventSourceMapping: { scalingConfig: { maximumConcurrency: handOnConcurrency } },
  },
});

export const qlikCloudPollFunction = new sst.aws.Function("QlikCloudPoll", {
  ...functionDefaults,
  handler: "functions/qlik-cloud/poll-function.handler",
  timeout: "50 seconds",
  environment: { STEWARD_QLIK_CLOUD_POLL_MINUTES: String(qlikCloudPollMinutes) },
  link: [...functionDefaults.link, qlikCloudTable, scheduleTable, rateLimitTable],
  permissions: [
    // core/adapters/aws/dynamo-cloud-run-inbox.ts, dynamo-cloud-cursor-store.ts
    { actions: [...inboxActions, "dynamodb:GetItem"], resources: [qlikCloudTable.arn] },
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
