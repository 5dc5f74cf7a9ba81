/**
 * The audit queue consumer: subscribed to the ingest queue with batching and partial batch
 * responses, so only failed messages are retried (and reach the queue's dead-letter queue after
 * its receive limit); linked to the bucket the exported files go to.
 */
import { functionDefaults } from "./functions.ts";
import { queue } from "./queue.ts";
import { auditEventsBucket } from "./storage.ts";

export const auditConsumer = queue.subscribe(
  {
    ...functionDefaults,
    handler: "functions/audit-consumer/handler.handler",
    // Parquet encoding of a full batch and InfluxDB retries need more than the HTTP default.
    timeout: "60 seconds",
    memory: "1024 MB",
    link: [...functionDefaults.link, auditEventsBucket],
  },
  { batch: { size: 100, window: "5 seconds", partialResponses: true } },
);
