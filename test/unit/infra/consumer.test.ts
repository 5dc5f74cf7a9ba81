import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installSstStub, type RecordedResource, type SstStub } from "../../helpers/sst-stub.ts";

describe("infra/consumer.ts", () => {
  let stub: SstStub;

  beforeAll(async () => {
    stub = installSstStub("test");
    // Computed specifier: infra/ is outside the main tsconfig (its types come from .sst/platform).
    const modulePath = "../../../infra/consumer.ts";
    await import(modulePath);
  });
  afterAll(() => stub.uninstall());

  it("subscribes the consumer to the event queue in batches with partial batch responses", () => {
    const queue = stub.find("aws.Queue", "AuditEventQueue");
    const subscriptions = queue.calls.filter((call) => call.method === "subscribe");

    expect(subscriptions).toHaveLength(1);
    const [subscriber, options] = subscriptions[0]!.args as [
      { handler: string; runtime: string; timeout: string; link: RecordedResource[] },
      unknown,
    ];
    expect(subscriber).toMatchObject({
      handler: "functions/audit-consumer/handler.handler",
      runtime: "nodejs20.x",
      timeout: "45 seconds",
    });
    expect(options).toEqual({ batch: { size: 100, window: "5 seconds", partialResponses: true } });
    expect(subscriber.link.map((resource) => `${resource.kind} ${resource.name}`)).toEqual([
      "Secret StewardConfig",
      "aws.Bucket AuditEventsBucket",
    ]);
  });

  it("keeps the queue's visibility timeout at six times the consumer's timeout or more", () => {
    const seconds = (duration: string) => Number(/^(\d+) seconds$/.exec(duration)?.[1]);
    const queue = stub.find("aws.Queue", "AuditEventQueue");
    const [subscriber] = queue.calls.find((call) => call.method === "subscribe")!.args as [
      { timeout: string },
    ];
    const visibility = seconds((queue.args as { visibilityTimeout: string }).visibilityTimeout);
    expect(visibility).toBeGreaterThanOrEqual(6 * seconds(subscriber.timeout));
  });

  it("defines the bucket the exported files go to", () => {
    stub.find("aws.Bucket", "AuditEventsBucket");
  });
});
