import { afterEach, describe, expect, it, vi } from "vitest";
import { runSstConfig, type SstStub } from "../../helpers/sst-stub.ts";

/** sst.config.ts under the stub, with the deploy-time environment `env`. */
async function deployWith(env: Record<string, string>): Promise<SstStub> {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await runSstConfig("production")).stub;
}

describe("infra/limits.ts", () => {
  let stub: SstStub | undefined;

  afterEach(() => {
    stub?.uninstall();
    stub = undefined;
    vi.unstubAllEnvs();
  });

  it("by default reserves 20 ingest, 10 REST, 5 consumer, 10 Qlik Cloud webhook, 2 Qlik Cloud hand-on and 2 Qlik Cloud polling instances", async () => {
    // Act
    stub = await deployWith({});

    // Assess
    const functions = stub.resources.filter((resource) => resource.kind === "aws.Function");
    const reserved = Object.fromEntries(
      functions.map((fn) => [fn.name, (fn.args as { concurrency?: unknown }).concurrency]),
    );
    expect(reserved).toEqual({
      AuditIngest: { reserved: 20 },
      Rest: { reserved: 10 },
      AuditConsumer: { reserved: 5 },
      QlikCloudWebhook: { reserved: 10 },
      QlikCloudHandOn: { reserved: 2 },
      QlikCloudPoll: { reserved: 2 },
    });
  });

  it("takes the API's throttle and each function's reserved concurrency from the deploy's environment", async () => {
    // Act
    stub = await deployWith({
      STEWARD_API_RATE_LIMIT: "40",
      STEWARD_API_BURST_LIMIT: " 80 ",
      STEWARD_INGEST_CONCURRENCY: "50",
      STEWARD_REST_CONCURRENCY: "3",
      STEWARD_CONSUMER_CONCURRENCY: "2",
    });

    // Assess
    expect(stub.find("aws.ApiGatewayV2", "Api").args).toMatchObject({
      transform: { stage: { defaultRouteSettings: { throttlingRateLimit: 40, throttlingBurstLimit: 80 } } },
    });
    expect(stub.find("aws.Function", "AuditIngest").args).toMatchObject({ concurrency: { reserved: 50 } });
    expect(stub.find("aws.Function", "Rest").args).toMatchObject({ concurrency: { reserved: 3 } });
    expect(stub.find("aws.Function", "AuditConsumer").args).toMatchObject({ concurrency: { reserved: 2 } });
    const [, subscription] = stub.find("aws.Queue", "AuditEventQueue").calls[0]?.args ?? [];
    expect(subscription).toMatchObject({
      transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 2 } } },
    });
  });

  it.each([
    ["STEWARD_API_RATE_LIMIT", "fast", "from 1 to 10000"],
    ["STEWARD_API_BURST_LIMIT", "0", "from 1 to 5000"],
    ["STEWARD_INGEST_CONCURRENCY", "2.5", "from 1 to 1000"],
    ["STEWARD_REST_CONCURRENCY", "-1", "from 1 to 1000"],
    // The queue's event source mapping polls with 2 batches at once or more.
    ["STEWARD_CONSUMER_CONCURRENCY", "1", "from 2 to 1000"],
    ["STEWARD_QLIK_CLOUD_WEBHOOK_CONCURRENCY", "0", "from 1 to 1000"],
  ])("stops the deploy when %s is %j, naming the variable and its range", async (name, value, range) => {
    // Act
    const deploy = deployWith({ [name]: value });

    // Assess
    await expect(deploy).rejects.toThrow(`${name} must be a whole number ${range}, not "${value}"`);
  });
});
