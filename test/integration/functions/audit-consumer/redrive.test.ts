/**
 * The consumer under the SQS event source mapping as AWS runs it (played here by the test against
 * local-aws-sqs): records named in batchItemFailures are not deleted and come back; a poison
 * message moves to the dead-letter queue after 5 receives while good messages are deleted once.
 */

import type { AddressInfo } from "node:net";
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSRecord } from "aws-lambda";
import { createSqsServer } from "local-aws-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditDestination } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { createAuditConsumer } from "../../../../functions/audit-consumer/consumer.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let server: Awaited<ReturnType<typeof createSqsServer>>;
let client: SQSClient;

beforeAll(async () => {
  server = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
  client = new SQSClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
});
afterAll(async () => {
  client.destroy();
  await new Promise((resolve) => server.close(resolve));
});

async function count(queueUrl: string): Promise<number> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
}

describe("audit consumer with SQS redrive", () => {
  it("retries only failed records and parks the poison message in the dead-letter queue after 5 receives", async () => {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: "audit-dlq" }));
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl!, AttributeNames: ["QueueArn"] }),
    );
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: "audit-events-redrive",
        Attributes: {
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: 5 }),
        },
      }),
    );
    const queueUrl = queue.QueueUrl!;
    const good = acceptedEvent();
    const attributes = {
      clientIp: { DataType: "String", StringValue: "10.0.0.1" },
      receivedAt: { DataType: "String", StringValue: good.receivedAt },
    };
    await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(good.envelope),
        MessageAttributes: attributes,
      }),
    );
    await client.send(
      new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: "{poison", MessageAttributes: attributes }),
    );
    const written: string[] = [];
    const writer: AuditDestination = {
      name: "parquet",
      async write(batch) {
        written.push(...batch.events.map((event) => event.envelope.eventId));
      },
    };
    const consume = createAuditConsumer({
      destinations: [writer],
      logger: recordingLogger(),
      clock: systemClock,
    });

    for (let round = 0; round < 7; round += 1) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          MessageAttributeNames: ["All"],
          MessageSystemAttributeNames: ["All"],
          AttributeNames: ["All"],
          VisibilityTimeout: 1,
        }),
      );
      if (Messages.length === 0) break;
      const records = Messages.map(
        (message) =>
          ({
            messageId: message.MessageId!,
            receiptHandle: message.ReceiptHandle!,
            body: message.Body!,
            attributes: { ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? "1" },
            messageAttributes: Object.fromEntries(
              Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
                name,
                { stringValue: value.StringValue, dataType: "String" },
              ]),
            ),
          }) as unknown as SQSRecord,
      );
      const { batchItemFailures } = await consume({ Records: records });
      const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
      // Lambda deletes the successes; a failure reappears when its visibility timeout (1 s here)
      // ends, and SQS moves it to the dead-letter queue on the receive after the 5th.
      for (const record of records) {
        if (!failed.has(record.messageId)) {
          await client.send(
            new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle }),
          );
        }
      }
      if (failed.size > 0) await new Promise((resolve) => setTimeout(resolve, 1100));
    }

    expect(written).toEqual([good.envelope.eventId]);
    expect(await count(queueUrl)).toBe(0);
    expect(await count(dlq.QueueUrl!)).toBe(1);
  });
});
