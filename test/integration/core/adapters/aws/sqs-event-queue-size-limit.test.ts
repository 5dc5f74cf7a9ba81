/**
 * The SQS event queue against a queue with a message size limit, on a real SQS stand-in on
 * loopback (local-aws-sqs refuses an oversized message as SQS does: InvalidParameterValue,
 * "Message must be shorter than N bytes"): the event is answered "too-large", never sent, and
 * logged at most once a minute with the sizes; smaller events still go through.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { createSqsServer } from "local-aws-sqs";
import { describe, expect, it } from "vitest";
import { createSqsEventQueue } from "../../../../../core/adapters/aws/sqs-event-queue.ts";
import type { AcceptedEvent } from "../../../../../core/audit/accepted-event.ts";
import { bareAuditEvent } from "../../../../helpers/audit-events.ts";
import { createManualClock } from "../../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";

const event = bareAuditEvent();

describe("SQS event queue over a queue with a message size limit (local-aws-sqs)", () => {
  /** A real SQS stand-in on loopback, a queue limited to `maxBytes`, and the adapter over it. */
  async function limitedQueue(maxBytes: number) {
    const server: Server = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
    const client = new SQSClient({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: "us-east-1",
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    });
    const created = await client.send(
      new CreateQueueCommand({ QueueName: "limited", Attributes: { MaximumMessageSize: String(maxBytes) } }),
    );
    const queueUrl = created.QueueUrl as string;
    const logger = recordingLogger();
    const clock = createManualClock();
    const queue = createSqsEventQueue({ client, queueUrl, logger, clock });
    const received = async () =>
      (await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 })))
        .Messages ?? [];
    const close = async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
    return { queue, logger, clock, received, close };
  }

  const padded = (bytes: number): AcceptedEvent => ({
    ...event,
    envelope: { ...event.envelope, payload: { pad: "x".repeat(bytes) } },
  });

  it("answers too-large for an event over the queue's message size, with a WARN at most once a minute giving the sizes", async () => {
    // Prepare
    const { queue, logger, clock, received, close } = await limitedQueue(1024);

    // Act
    const answers = [await queue.enqueue(padded(2000)), await queue.enqueue(padded(3000))];
    clock.advance(60_000);
    answers.push(await queue.enqueue(padded(2000)));
    const small = await queue.enqueue(event);
    const messages = await received();
    await close();

    // Assess
    expect(answers).toEqual(["too-large", "too-large", "too-large"]);
    expect(small).toBe("queued");
    expect(messages).toHaveLength(1);
    const warnings = logger.at("warn");
    expect(warnings.map((entry) => entry.fields)).toEqual([
      {
        bodyBytes: JSON.stringify(padded(2000).envelope).length,
        maxMessageBytes: 1024,
        refusedSinceLastWarning: 1,
      },
      {
        bodyBytes: JSON.stringify(padded(2000).envelope).length,
        maxMessageBytes: 1024,
        refusedSinceLastWarning: 2,
      },
    ]);
    expect(warnings[0]?.message).toContain("(413)");
    expect(warnings[0]?.message).toContain("auditEvents.maxBodyBytes");
  });
});
