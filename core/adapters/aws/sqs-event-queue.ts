/**
 * The cloud EventQueue: one SQS `SendMessage` per accepted event, body = the envelope JSON,
 * message attributes `clientIp` and `receivedAt`. "queued" only once SQS returned a MessageId,
 * so a 202 is never false. Throttling, 5xx and network failures throw
 * EventQueueUnavailableError (retryable, 503); anything else throws EventQueueError (500).
 * SQS has no capacity limit to report, so this adapter never answers "full" or "rate-limited".
 * It does limit a message's size (body plus attributes; the queue's `MaximumMessageSize`), and
 * an event over it can never be sent: SQS's refusal ("Message must be shorter than N bytes") is
 * answered "too-large" (→ 413) with a WARN at most once a minute giving the sizes. The limit is
 * read from that refusal, not assumed, since each queue sets its own.
 */

import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { type AcceptedEvent, EventQueueError, EventQueueUnavailableError } from "../../audit/index.ts";
import { createLogThrottle } from "../../logging/index.ts";
import type { Clock, EnqueueResult, EventQueue, Logger } from "../../ports.ts";

export interface SqsEventQueueOptions {
  client: SQSClient;
  queueUrl: string;
  logger: Logger;
  clock: Clock;
}

const THROTTLING_ERRORS = new Set([
  "ThrottlingException",
  "Throttling",
  "RequestThrottled",
  "KmsThrottled",
  "RequestLimitExceeded",
  "ServiceUnavailable",
  "InternalError",
]);

interface SdkErrorShape {
  name?: unknown;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
  code?: unknown;
}

/** Whether a failed SendMessage is worth retrying later (throttled, server-side or network). */
export function isRetryableSqsError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as SdkErrorShape;
  if (typeof e.name === "string" && THROTTLING_ERRORS.has(e.name)) return true;
  if (e.$retryable !== undefined) return true;
  const status = e.$metadata?.httpStatusCode;
  // No HTTP status at all: the request never got an answer (DNS, refused, reset, timeout).
  if (status === undefined) return e.$metadata !== undefined || typeof e.code === "string";
  return status >= 500 || status === 429;
}

/**
 * The size limit SQS states when it refuses a message as too large, e.g. "One or more parameters
 * are invalid. Reason: Message must be shorter than 262144 bytes." (code InvalidParameterValue);
 * undefined for any other error.
 */
export function sqsMessageSizeLimit(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name !== "InvalidParameterValue" || typeof message !== "string") return undefined;
  const match = /Message must be shorter than (\d+) bytes/.exec(message);
  return match === null ? undefined : Number(match[1]);
}

/** The SQS message attributes an event travels with (see createSqsEventQueue). */
export interface SqsEventMessage {
  Body?: string | undefined;
  MessageAttributes?: Record<string, { StringValue?: string | undefined }> | undefined;
}

/**
 * The AcceptedEvent an SQS message carries, for the queue consumer. The body was validated before
 * it was sent; this only checks that the message is one of ours.
 */
export function decodeSqsEventMessage(message: SqsEventMessage): AcceptedEvent {
  const clientIp = message.MessageAttributes?.clientIp?.StringValue;
  const receivedAt = message.MessageAttributes?.receivedAt?.StringValue;
  if (message.Body === undefined || clientIp === undefined || receivedAt === undefined) {
    throw new EventQueueError("SQS message lacks the body or the clientIp/receivedAt attributes");
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(message.Body);
  } catch (error) {
    throw new EventQueueError("SQS message body is not JSON", { cause: error });
  }
  if (!isEnvelope(envelope)) throw new EventQueueError("SQS message body is not an audit envelope");
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

export function createSqsEventQueue(options: SqsEventQueueOptions): EventQueue {
  const { client, queueUrl, logger, clock } = options;
  const throttle = createLogThrottle();

  function warnTooLarge(body: string, maxMessageBytes: number): void {
    const count = throttle.admit("too-large", clock.now());
    if (count === undefined) return;
    logger.warn(
      "Audit event refused (413): it is larger than the event queue's SQS message size limit and can never be queued; keep auditEvents.maxBodyBytes below the queue's MaximumMessageSize",
      { bodyBytes: Buffer.byteLength(body), maxMessageBytes, refusedSinceLastWarning: count },
    );
  }

  return {
    async enqueue(event: AcceptedEvent, envelopeJson?: string): Promise<EnqueueResult> {
      let messageId: string | undefined;
      const body = envelopeJson ?? JSON.stringify(event.envelope);
      try {
        const output = await client.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: body,
            MessageAttributes: {
              clientIp: { DataType: "String", StringValue: event.clientIp },
              receivedAt: { DataType: "String", StringValue: event.receivedAt },
            },
          }),
        );
        messageId = output.MessageId;
      } catch (error) {
        const maxMessageBytes = sqsMessageSizeLimit(error);
        if (maxMessageBytes !== undefined) {
          warnTooLarge(body, maxMessageBytes);
          return "too-large";
        }
        if (isRetryableSqsError(error)) {
          throw new EventQueueUnavailableError("SQS SendMessage failed, retryable", { cause: error });
        }
        throw new EventQueueError("SQS SendMessage failed", { cause: error });
      }
      if (messageId === undefined || messageId === "") {
        throw new EventQueueError("SQS SendMessage returned no MessageId");
      }
      return "queued";
    },
  };
}
