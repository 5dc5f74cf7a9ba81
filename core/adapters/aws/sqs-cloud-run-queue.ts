/**
 * CloudRunQueue (core/ports.ts) on SQS, for the cloud's webhook function: one `SendMessage` per
 * new run, its body the run's key (core/qlik-cloud/cloud-run-message.ts), so that the webhook's
 * 2xx waits for DynamoDB and SQS only, and the hand-on function consumes the queue. Sent only once
 * SQS returned a MessageId; any failure rejects, and the intake decides what becomes of the run.
 */
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { CloudRunQueue } from "../../ports.ts";
import { cloudRunMessage } from "../../qlik-cloud/index.ts";

export interface SqsCloudRunQueueOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
}

export function createSqsCloudRunQueue(options: SqsCloudRunQueueOptions): CloudRunQueue {
  const { client, queueUrl } = options;
  return {
    async send(run) {
      const output = await client.send(
        new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: cloudRunMessage(run) }),
      );
      if (output.MessageId === undefined || output.MessageId === "")
        throw new Error("SQS SendMessage returned no MessageId");
    },
  };
}
