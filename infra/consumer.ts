/**
 * The audit queue consumer: subscribed to the ingest queue with batching and partial batch
 * responses, so only failed messages are retried (and reach the queue's dead-letter queue after
 * 5 receives); linked to the bucket the exported files go to, where it may only put objects
 * (infra/links.ts). Declared as a function of its own (subscribed by ARN) so that the alarms can
 * name it; a subscription by ARN leaves the function's role as it is, so the role itself grants
 * what Lambda's poller does in the function's name: receive, delete and read the queue's
 * attributes (AWS's AWSLambdaSQSQueueExecutionRole, on this queue only).
 */
import { functionDefaults } from "./functions.ts";
import { reservedConcurrency } from "./limits.ts";
import { auditEventQueue } from "./queue.ts";
import { auditEventsBucket } from "./storage.ts";

export const auditConsumerFunction = new sst.aws.Function("AuditConsumer", {
  ...functionDefaults,
  handler: "functions/audit-consumer/handler.handler",
  // Encoding a batch of 100 as Parquet + QVD and InfluxDB retries need more than the HTTP
  // default; the queue's visibility timeout is six times this.
  timeout: "45 seconds",
  memory: "1024 MB",
  link: [...functionDefaults.link, auditEventsBucket],
  permissions: [
    // core/adapters/aws/s3-object-store.ts, on every object of the bucket: the key prefix
    // (cloud.bucketPrefix) is in the StewardConfig secret, read at run time, not at deploy time
    { actions: ["s3:PutObject"], resources: [$interpolate`${auditEventsBucket.arn}/*`] },
    // the queue subscription's poller
    {
      actions: ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
      resources: [auditEventQueue.arn],
    },
  ],
  concurrency: { reserved: reservedConcurrency.consumer },
});

export const auditConsumer = auditEventQueue.subscribe(auditConsumerFunction.arn, {
  batch: { size: 100, window: "5 seconds", partialResponses: true },
  transform: {
    eventSourceMapping: { scalingConfig: { maximumConcurrency: reservedConcurrency.consumer } },
  },
});
