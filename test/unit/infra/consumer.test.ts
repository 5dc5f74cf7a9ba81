import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  componentLabel,
  installSstStub,
  type RecordedResource,
  type SstStub,
} from "../../helpers/sst-stub.ts";

describe("infra/consumer.ts", () => {
  let stub: SstStub;

  beforeAll(async () => {
    stub = installSstStub("test");
    // Computed specifier: infra/ is outside the main tsconfig (its types come from .sst/platform).
    const modulePath = "../../../infra/consumer.ts";
    await import(modulePath);
  });
  afterAll(() => stub.uninstall());

  it("subscribes the consumer to the event queue in batches with partial batch responses, polling no more batches at once than its reserved concurrency", () => {
    const queue = stub.find("aws.Queue", "AuditEventQueue");
    const subscriptions = queue.calls.filter((call) => call.method === "subscribe");

    expect(subscriptions).toHaveLength(1);
    const [subscriber, options] = subscriptions[0]!.args;
    expect(subscriber).toBe("aws.Function:AuditConsumer.arn");
    expect(options).toEqual({
      batch: { size: 100, window: "5 seconds", partialResponses: true },
      transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 5 } } },
    });
    expect(stub.find("aws.Function", "AuditConsumer").args).toMatchObject({ concurrency: { reserved: 5 } });
  });

  it("runs the consumer on Node 24, arm64, with more time and memory, linked to config and bucket", () => {
    const subscriber = stub.find("aws.Function", "AuditConsumer").args as {
      handler: string;
      link: RecordedResource[];
    };
    expect(subscriber).toMatchObject({
      handler: "functions/audit-consumer/handler.handler",
      runtime: "nodejs24.x",
      architecture: "arm64",
      timeout: "45 seconds",
      memory: "1024 MB",
    });
    expect(subscriber.link.map(componentLabel)).toEqual([
      "Secret StewardConfig",
      "aws.Bucket AuditEventsBucket",
    ]);
  });

  it("keeps the queue's visibility timeout at six times the consumer's timeout or more", () => {
    const seconds = (duration: string) => Number(/^(\d+) seconds$/.exec(duration)?.[1]);
    const queue = stub.find("aws.Queue", "AuditEventQueue");
    const subscriber = stub.find("aws.Function", "AuditConsumer").args as { timeout: string };
    const visibility = seconds((queue.args as { visibilityTimeout: string }).visibilityTimeout);
    expect(visibility).toBeGreaterThanOrEqual(6 * seconds(subscriber.timeout));
  });

  it("defines the bucket the exported files go to", () => {
    stub.find("aws.Bucket", "AuditEventsBucket");
  });
});
