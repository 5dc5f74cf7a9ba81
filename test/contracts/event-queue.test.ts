import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { createSqsServer } from "local-aws-sqs";
import { afterAll, beforeAll } from "vitest";
import { createSqsEventQueue, decodeSqsEventMessage } from "../../core/adapters/aws/sqs-event-queue.ts";
import { createDurableEventQueue } from "../../core/adapters/local/durable-queue/durable-event-queue.ts";
import { openDurableLog } from "../../core/adapters/local/durable-queue/durable-log.ts";
import { createInProcessEventQueue } from "../../core/adapters/local/in-process-event-queue.ts";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";
import { systemClock } from "../../core/system-clock.ts";
import { recordingLogger } from "../helpers/recording-logger.ts";
import { describeEventQueueContract } from "./event-queue.contract.ts";

let sqsServer: Server;
let sqs: SQSClient;
let queueCount = 0;

beforeAll(async () => {
  sqsServer = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
  const { port } = sqsServer.address() as AddressInfo;
  sqs = new SQSClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
});
afterAll(async () => {
  sqs.destroy();
  await new Promise<void>((resolve) => sqsServer.close(() => resolve()));
});

describeEventQueueContract("in-process", async () => {
  const delivered: AcceptedEvent[] = [];
  const queue = createInProcessEventQueue(
    {
      maxSize: 10,
      maxConcurrent: 2,
      backpressureThreshold: 80,
      rateLimit: { enable: false, maxPerMinute: 600 },
    },
    { handler: async (event) => void delivered.push(event), logger: recordingLogger(), clock: systemClock },
  );
  return {
    queue,
    async consumed(count) {
      await queue.drain();
      return delivered.slice(0, count);
    },
  };
});

describeEventQueueContract("durable log (segment files)", async () => {
  const delivered: AcceptedEvent[] = [];
  const directory = await mkdtemp(join(tmpdir(), "steward-event-queue-"));
  const logger = recordingLogger();
  const log = await openDurableLog({
    directory,
    destinations: ["parquet"],
    maxDiskBytes: 1024 * 1024,
    clock: systemClock,
    logger,
  });
  const queue = createDurableEventQueue(
    { backpressureThreshold: 80, rateLimit: { enable: false, maxPerMinute: 600 } },
    {
      log,
      destinations: ["parquet"],
      deliver: async (_destination, event) => void delivered.push(event),
      logger,
      clock: systemClock,
    },
  );
  return {
    queue,
    async consumed(count) {
      await queue.drain();
      await queue.stop();
      await log.close();
      await rm(directory, { recursive: true, force: true });
      return delivered.slice(0, count);
    },
  };
});

describeEventQueueContract("SQS (local-aws-sqs)", async () => {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: `audit-events-${++queueCount}` }));
  const queueUrl = created.QueueUrl as string;
  return {
    queue: createSqsEventQueue({ client: sqs, queueUrl, logger: recordingLogger(), clock: systemClock }),
    async consumed(count) {
      const events: AcceptedEvent[] = [];
      // Bounded: at most 20 short polls.
      for (let attempt = 0; attempt < 20 && events.length < count; attempt++) {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            MessageAttributeNames: ["All"],
          }),
        );
        for (const message of received.Messages ?? []) events.push(decodeSqsEventMessage(message));
      }
      return events;
    },
  };
});
