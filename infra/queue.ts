/**
 * The audit event queue: the ingest function sends accepted events here; the consumer (subscribed
 * by the destinations infra) writes them. A message that fails 5 receives moves to the
 * dead-letter queue, kept 14 days for inspection and redrive.
 */
export const auditEventDlq = new sst.aws.Queue("AuditEventDlq", {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 60 * 60 } },
});

export const auditEventQueue = new sst.aws.Queue("AuditEventQueue", {
  visibilityTimeout: "60 seconds",
  dlq: { queue: auditEventDlq.arn, retry: 5 },
});
