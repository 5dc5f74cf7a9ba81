/**
 * The audit event queue: the ingest function sends accepted events here; the consumer (subscribed
 * by the destinations infra) writes them. A message that fails 5 receives moves to the
 * dead-letter queue, kept 14 days for inspection and redrive. The visibility timeout is six times
 * the consumer's timeout, as AWS recommends for Lambda event sources, so a batch still being
 * written (or retried by Lambda's poller) is never handed out twice.
 */
export const auditEventDlq = new sst.aws.Queue("AuditEventDlq", {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 60 * 60 } },
});

export const auditEventQueue = new sst.aws.Queue("AuditEventQueue", {
  visibilityTimeout: "270 seconds",
  dlq: { queue: auditEventDlq.arn, retry: 5 },
});
