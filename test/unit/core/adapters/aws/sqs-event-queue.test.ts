import { SendMessageCommand, SQSClient, SQSServiceException } from "@aws-sdk/client-sqs";
import { mockClient } from "aws-sdk-client-mock";
import { afterEach, describe, expect, it } from "vitest";
import {
  createSqsEventQueue,
  decodeSqsEventMessage,
} from "../../../../../core/adapters/aws/sqs-event-queue.ts";
import { EventQueueError, EventQueueUnavailableError } from "../../../../../core/audit/queue-errors.ts";
import { bareAuditEvent } from "../../../../helpers/audit-events.ts";
import { createManualClock } from "../../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";

const event = bareAuditEvent();

function serviceError(name: string, status: number, message = name): SQSServiceException {
  return new SQSServiceException({
    name,
    $fault: status >= 500 ? "server" : "client",
    $metadata: { httpStatusCode: status },
    message,
  });
}

const sqsMock = mockClient(SQSClient);
afterEach(() => sqsMock.reset());

function queue() {
  return createSqsEventQueue({
    client: new SQSClient({ region: "us-east-1", endpoint: "http://127.0.0.1:9" }),
    queueUrl: "http://q/1",
    logger: recordingLogger(),
    clock: createManualClock(),
  });
}

describe("SQS event queue error mapping", () => {
  it("sends the envelope as the body with clientIp and receivedAt attributes", async () => {
    sqsMock.on(SendMessageCommand).resolves({ MessageId: "m1" });

    await queue().enqueue(event);

    const input = sqsMock.commandCalls(SendMessageCommand)[0]?.args[0].input;
    expect(JSON.parse(input?.MessageBody ?? "")).toEqual(event.envelope);
    expect(input?.MessageAttributes).toEqual({
      clientIp: { DataType: "String", StringValue: "10.0.0.1" },
      receivedAt: { DataType: "String", StringValue: "2026-01-01T00:00:00.000Z" },
    });
  });

  it.each([
    ["throttling", serviceError("ThrottlingException", 400)],
    ["request throttled", serviceError("RequestThrottled", 403)],
    ["a 5xx", serviceError("InternalFailure", 500)],
    [
      "a network failure",
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", $metadata: {} }),
    ],
  ])("maps %s to a retryable EventQueueUnavailableError", async (_label, error) => {
    sqsMock.on(SendMessageCommand).rejects(error);

    const failure = await queue()
      .enqueue(event)
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(EventQueueUnavailableError);
    expect((failure as Error).cause).toBe(error);
  });

  it.each([
    ["access denied", serviceError("AccessDenied", 403)],
    ["a missing queue", serviceError("QueueDoesNotExist", 400)],
    [
      "an invalid parameter other than the size",
      serviceError("InvalidParameterValue", 400, "Value x for parameter DelaySeconds is invalid."),
    ],
  ])("maps %s to a non-retryable EventQueueError", async (_label, error) => {
    sqsMock.on(SendMessageCommand).rejects(error);

    const failure = await queue()
      .enqueue(event)
      .catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(EventQueueError);
    expect(failure).not.toBeInstanceOf(EventQueueUnavailableError);
  });

  it("never answers queued without a MessageId", async () => {
    sqsMock.on(SendMessageCommand).resolves({});

    await expect(queue().enqueue(event)).rejects.toBeInstanceOf(EventQueueError);
  });

  it("refuses to decode a message without the attributes", () => {
    expect(() => decodeSqsEventMessage({ Body: "{}" })).toThrow(EventQueueError);
  });
});
