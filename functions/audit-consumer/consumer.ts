/**
 * The SQS batch handler of the cloud consumer: decodes each record (body = envelope JSON,
 * message attributes `clientIp` and `receivedAt`, as the ingest function sends them), runs the
 * consume use case, and answers a partial batch response naming only the records to retry: those
 * a destination could not store because of an outage. An event a destination refused as data is
 * acknowledged, logged and counted (consume-events.ts), never retried. A record that cannot be
 * decoded fails on its own and reaches the dead-letter queue after 5 receives.
 */

import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { decodeSqsEventMessage } from "../../core/adapters/aws/sqs-event-queue.ts";
import type { AcceptedEvent } from "../../core/audit/index.ts";
import { consumeEvents, refusalTallies } from "../../core/destinations/index.ts";
import type { AuditDestination, Clock, Logger } from "../../core/ports.ts";

export interface AuditConsumerOptions {
  destinations: readonly AuditDestination[];
  logger: Logger;
  clock: Clock;
}

export function createAuditConsumer(
  options: AuditConsumerOptions,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const { destinations, logger, clock } = options;
  // Kept while the function instance lives, so refusals are logged once a minute, not per batch.
  const refusals = refusalTallies(logger);
  return async function consumeSqsBatch(event) {
    const failures = new Set<string>();
    const decoded: { messageId: string; event: AcceptedEvent }[] = [];
    for (const record of event.Records) {
      try {
        decoded.push({ messageId: record.messageId, event: decodeRecord(record) });
      } catch (error) {
        failures.add(record.messageId);
        logger.error("undecodable audit event message; left for retry and the dead-letter queue", {
          messageId: record.messageId,
          receiveCount: record.attributes?.ApproximateReceiveCount,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    const { failed } = await consumeEvents(
      destinations,
      decoded.map((item) => item.event),
      { now: new Date(clock.now()), logger, refusals },
    );
    for (const item of decoded) if (failed.has(item.event)) failures.add(item.messageId);
    return { batchItemFailures: [...failures].map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

/** The event a Lambda SQS record carries: the same decoding as for messages received with the SDK. */
export function decodeRecord(record: SQSRecord): AcceptedEvent {
  const attribute = (name: string) => ({ StringValue: record.messageAttributes?.[name]?.stringValue });
  return decodeSqsEventMessage({
    Body: record.body,
    MessageAttributes: { clientIp: attribute("clientIp"), receivedAt: attribute("receivedAt") },
  });
}
