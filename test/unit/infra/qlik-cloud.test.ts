/**
 * infra/qlik-cloud.ts: the Qlik Cloud table, the webhook function on its route of the shared
 * API, linked to the table and the runs' queue, the hand-on function subscribed to that queue (a
 * dead-letter queue after 5 receives, partial batch responses, a time limit shorter than the time
 * a claimed run is left to it, and a visibility timeout six times it), the polling function on an EventBridge schedule that hands it EventBridge's own event,
 * with a time limit shorter than the shortest slot, and the schedule's period from the deploy's
 * environment.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PENDING_AFTER_MS } from "../../../functions/qlik-cloud/cloud-qlik-input.ts";
import { componentLabel, type RecordedResource, runSstConfig, type SstStub } from "../../helpers/sst-stub.ts";

async function deployWith(env: Record<string, string>): Promise<SstStub> {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await runSstConfig("production")).stub;
}

const seconds = (duration: string) => Number(duration.split(" ")[0]);

describe("infra/qlik-cloud.ts", () => {
  let stub: SstStub | undefined;

  afterEach(() => {
    stub?.uninstall();
    stub = undefined;
    vi.unstubAllEnvs();
  });

  it("keeps the runs and cursors in a table of their own, keyed pk and sk, with expiresAt as TTL attribute", async () => {
    stub = await deployWith({});

    expect(stub.find("aws.Dynamo", "QlikCloudTable").args).toEqual({
      fields: { pk: "string", sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      ttl: "expiresAt",
    });
  });

  it("routes the tenants' webhook deliveries to the webhook function, linked to its table and the runs' queue", async () => {
    stub = await deployWith({});
    const api = stub.find("aws.ApiGatewayV2", "Api");
    const routes = new Map(
      api.calls.filter((call) => call.method === "route").map((call) => [call.args[0], call.args[1]]),
    );
    const fn = stub.find("aws.Function", "QlikCloudWebhook");

    expect(routes.get("POST /api/v1/qlik-cloud/webhooks/{tenant}")).toBe("aws.Function:QlikCloudWebhook.arn");
    expect(fn.args).toMatchObject({ handler: "functions/qlik-cloud/webhook-function.handler" });
    expect((fn.args as { link: RecordedResource[] }).link.map(componentLabel)).toEqual([
      "Secret StewardConfig",
      "aws.Dynamo QlikCloudTable",
      "aws.Queue QlikCloudRunQueue",
    ]);
  });

  it("subscribes the hand-on function to the runs' queue in batches with partial batch responses, a dead-letter queue after 5 receives, within the time a claimed run is left to it", async () => {
    stub = await deployWith({});
    const queue = stub.find("aws.Queue", "QlikCloudRunQueue");
    const dlq = stub.find("aws.Queue", "QlikCloudRunDlq");
    const fn = stub.find("aws.Function", "QlikCloudHandOn");
    const subscriptions = queue.calls.filter((call) => call.method === "subscribe");

    expect(subscriptions.map((call) => call.args)).toEqual([
      [
        "aws.Function:QlikCloudHandOn.arn",
        {
          batch: { size: 10, partialResponses: true },
          transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 2 } } },
        },
      ],
    ]);
    expect(queue.args).toMatchObject({ dlq: { queue: "aws.Queue:QlikCloudRunDlq.arn", retry: 5 } });
    expect(dlq.args).toEqual({ transform: { queue: { messageRetentionSeconds: 14 * 24 * 60 * 60 } } });
    expect(fn.args).toMatchObject({
      handler: "functions/qlik-cloud/hand-on-function.handler",
      concurrency: { reserved: 2 },
    });
    const timeout = seconds((fn.args as { timeout: string }).timeout);
    expect(timeout * 1000).toBeLessThan(PENDING_AFTER_MS);
    expect(seconds((queue.args as { visibilityTimeout: string }).visibilityTimeout)).toBeGreaterThanOrEqual(
      6 * timeout,
    );
    expect((fn.args as { link: RecordedResource[] }).link.map(componentLabel)).toEqual([
      "Secret StewardConfig",
      "aws.Dynamo QlikCloudTable",
      "aws.Dynamo RateLimitTable",
    ]);
  });

  it("runs the polling function every 5 minutes at the same minutes of each hour, on EventBridge's own event, within 50 s", async () => {
    stub = await deployWith({});
    const cron = stub.find("aws.Cron", "QlikCloudPollSchedule");
    const fn = stub.find("aws.Function", "QlikCloudPoll");
    const target = { arn: "x", rule: "y", input: "{}" };
    (cron.args as { transform: { target: (args: typeof target) => void } }).transform.target(target);

    expect(cron.args).toMatchObject({
      schedule: "cron(0/5 * * * ? *)",
      function: "aws.Function:QlikCloudPoll.arn",
    });
    expect(target.input).toBeUndefined();
    expect(fn.args).toMatchObject({
      handler: "functions/qlik-cloud/poll-function.handler",
      environment: { STEWARD_QLIK_CLOUD_POLL_MINUTES: "5" },
    });
    expect(seconds((fn.args as { timeout: string }).timeout)).toBeLessThan(60);
    expect((fn.args as { link: RecordedResource[] }).link.map(componentLabel)).toEqual([
      "Secret StewardConfig",
      "aws.Dynamo QlikCloudTable",
      "aws.Dynamo ScheduleTable",
      "aws.Dynamo RateLimitTable",
    ]);
  });

  it("takes the polling period from STEWARD_QLIK_CLOUD_POLL_MINUTES, and its lag alarm follows it", async () => {
    stub = await deployWith({ STEWARD_QLIK_CLOUD_POLL_MINUTES: "60" });

    expect(stub.find("aws.Cron", "QlikCloudPollSchedule").args).toMatchObject({
      schedule: "cron(0 * * * ? *)",
    });
    expect(stub.find("pulumi.aws.cloudwatch.MetricAlarm", "QlikCloudPollingLagAlarm").args).toMatchObject({
      namespace: "Steward",
      metricName: "steward_cloud_cursor_lag_seconds",
      statistic: "Maximum",
      period: 3600,
      threshold: (3 * 60 + 2) * 60,
      comparisonOperator: "GreaterThanThreshold",
    });
  });

  it.each([
    [
      "7",
      'STEWARD_QLIK_CLOUD_POLL_MINUTES must divide an hour (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60), not "7"',
    ],
    ["90", 'STEWARD_QLIK_CLOUD_POLL_MINUTES must be a whole number from 1 to 60, not "90"'],
  ])("stops the deploy when STEWARD_QLIK_CLOUD_POLL_MINUTES is %j", async (value, message) => {
    await expect(deployWith({ STEWARD_QLIK_CLOUD_POLL_MINUTES: value })).rejects.toThrow(message);
  });
});
