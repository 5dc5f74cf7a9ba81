/**
 * SQS messages sent and received through local-aws-sqs exactly as the ingest function sends
 * them, turned into the Lambda event records SQS would deliver.
 */
import type { AddressInfo } from "node:net";
import {
  CreateQueueCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSRecord } from "aws-lambda";
import { createSqsServer } from "local-aws-sqs";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";

export interface LocalSqs {
  client: SQSClient;
  endpoint: string;
  queueUrl: string;
  /** Sends the events as the ingest function does and receives them back as Lambda records. */
  roundTrip(events: readonly AcceptedEvent[], extraBodies?: string[]): Promise<SQSRecord[]>;
  /** Receives up to `wanted` messages (fewer once the queue answers none) as Lambda records. */
  receive(wanted: number): Promise<SQSRecord[]>;
  close(): Promise<void>;
}

/** local-aws-sqs on a free port with one queue, `queueName` (the audit events' by default). */
export async function startLocalSqs(queueName = "audit-events"): Promise<LocalSqs> {
  const server = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new SQSClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: queueName }));
  const queueUrl = QueueUrl!;
  const attributes = (clientIp: string, receivedAt: string) => ({
    clientIp: { DataType: "String", StringValue: clientIp },
    receivedAt: { DataType: "String", StringValue: receivedAt },
  });
  async function receive(wanted: number): Promise<SQSRecord[]> {
    const messages: Message[] = [];
    while (messages.length < wanted) {
      const { Messages } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          MessageAttributeNames: ["All"],
          MessageSystemAttributeNames: ["All"],
          VisibilityTimeout: 30,
        }),
      );
      if (Messages === undefined || Messages.length === 0) break;
      messages.push(...Messages);
    }
    return messages.map((message) => toLambdaRecord(message, queueName));
  }
  return {
    client,
    endpoint,
    queueUrl,
    receive,
    async roundTrip(events, extraBodies = []) {
      for (const event of events) {
        await client.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: JSON.stringify(event.envelope),
            MessageAttributes: attributes(event.clientIp, event.receivedAt),
          }),
        );
      }
      for (const body of extraBodies) {
        await client.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: body,
            MessageAttributes: attributes("10.0.0.1", new Date().toISOString()),
          }),
        );
      }
      return receive(events.length + extraBodies.length);
    },
    async close() {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function toLambdaRecord(message: Message, queueName: string): SQSRecord {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body!,
    attributes: {
      ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? "1",
      SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
      SenderId: message.Attributes?.SenderId ?? "local",
      ApproximateFirstReceiveTimestamp:
        message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { stringValue: value.StringValue, dataType: value.DataType ?? "String" },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queueName}`,
    awsRegion: "us-east-1",
  };
}
