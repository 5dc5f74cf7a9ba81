/**
 * The audit queue consumer: subscribed to the ingest queue with batching and partial batch
 * responses, so only failed messages are retried (and reach the queue's dead-letter queue after
 * 5 receives); linked to the bucket the exported files go to. Declared as a function of its own
 * (subscribed by ARN) so that the alarms can name it.
 */
import { functionDefaults } from "./functions.ts";
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
});

export const auditConsumer = auditEventQueue.subscribe(auditConsumerFunction.arn, {
  batch: { size: 100, window: "5 seconds", partialResponses: true },
});
