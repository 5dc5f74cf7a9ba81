/**
 * The SQS batch handler of the cloud consumer: decodes each record (body = envelope JSON,
 * message attributes `clientIp` and `receivedAt`, as the ingest function sends them), runs the
 * consume use case, and answers a partial batch response naming only the records to retry.
 * A record that cannot be decoded fails on its own and reaches the dead-letter queue after
 * 5 receives.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";
import { consumeEvents } from "../../core/destinations/consume-events.ts";
import type { DestinationWriter } from "../../core/destinations/destination-writer.ts";
import type { Clock, Logger } from "../../core/ports.ts";

export interface AuditConsumerOptions {
  writers: readonly DestinationWriter[];
  logger: Logger;
  clock: Clock;
}

export class SqsRecordDecodeError extends Error {
  override name = "SqsRecordDecodeError";
}

export function createAuditConsumer(
  options: AuditConsumerOptions,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  const { writers, logger, clock } = options;
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
      writers,
      decoded.map((item) => item.event),
      { now: new Date(clock.now()), logger },
    );
    for (const item of decoded) if (failed.has(item.event)) failures.add(item.messageId);
    return { batchItemFailures: [...failures].map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

export function decodeRecord(record: SQSRecord): AcceptedEvent {
  const clientIp = record.messageAttributes?.clientIp?.stringValue;
  const receivedAt = record.messageAttributes?.receivedAt?.stringValue;
  if (clientIp === undefined || receivedAt === undefined) {
    throw new SqsRecordDecodeError("message lacks the clientIp/receivedAt attributes");
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(record.body);
  } catch (error) {
    throw new SqsRecordDecodeError("message body is not JSON", { cause: error });
  }
  if (!isEnvelope(envelope)) throw new SqsRecordDecodeError("message body is not an audit envelope");
  return { envelope, clientIp, receivedAt };
}

// The ingest edge validated the envelope before sending it; this only checks the message is ours.
function isEnvelope(value: unknown): value is AcceptedEvent["envelope"] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.eventId === "string" &&
    typeof candidate.timestamp === "string" &&
    typeof candidate.type === "string" &&
    typeof candidate.schemaVersion === "number" &&
    typeof candidate.payload === "object" &&
    candidate.payload !== null
  );
}
