import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../../core/config/index.ts";
import { applySstLinks } from "../../../../local/cli/sst-links.ts";

/** The environment `sst dev` gives a DevCommand linked to the queue, the tables and the bucket. */
const linkedEnv = {
  SST_RESOURCE_App: JSON.stringify({ name: "steward", stage: "dev-ana" }),
  SST_RESOURCE_AuditEventQueue: JSON.stringify({
    type: "sst.aws.Queue",
    url: "https://sqs.eu-north-1.amazonaws.com/123456789012/steward-dev-ana-AuditEventQueue",
  }),
  SST_RESOURCE_RateLimitTable: JSON.stringify({ type: "sst.aws.Dynamo", name: "steward-dev-ana-RateLimit" }),
  SST_RESOURCE_KeyValueTable: JSON.stringify({ type: "sst.aws.Dynamo", name: "steward-dev-ana-KeyValue" }),
  SST_RESOURCE_ScheduleTable: JSON.stringify({ type: "sst.aws.Dynamo", name: "steward-dev-ana-Schedule" }),
  SST_RESOURCE_AuditEventsBucket: JSON.stringify({ type: "sst.aws.Bucket", name: "steward-dev-ana-events" }),
  AWS_REGION: "eu-north-1",
};

describe("applySstLinks", () => {
  it("fills every cloud store name from the SST links and enables the cloud stores", () => {
    const result = applySstLinks(defaultConfig(), linkedEnv);

    expect(result).toMatchObject({
      ok: true,
      applied: {
        stage: "dev-ana",
        links: ["AuditEventQueue", "RateLimitTable", "KeyValueTable", "ScheduleTable", "AuditEventsBucket"],
      },
    });
    expect(result.ok && result.config.cloud).toEqual({
      ...defaultConfig().cloud,
      enable: true,
      region: "eu-north-1",
      eventQueueUrl: "https://sqs.eu-north-1.amazonaws.com/123456789012/steward-dev-ana-AuditEventQueue",
      rateLimitTable: "steward-dev-ana-RateLimit",
      keyValueTable: "steward-dev-ana-KeyValue",
      scheduleTable: "steward-dev-ana-Schedule",
      bucketName: "steward-dev-ana-events",
    });
  });

  it("prefers the links to the configured names and keeps the rest of cloud.*", () => {
    const config = defaultConfig();
    const configured = {
      ...config,
      cloud: { ...config.cloud, region: "us-east-2", keyValueTable: "from-file", bucketPrefix: "steward/" },
    };
    const env = {
      SST_RESOURCE_App: linkedEnv.SST_RESOURCE_App,
      SST_RESOURCE_KeyValueTable: linkedEnv.SST_RESOURCE_KeyValueTable,
    };

    const result = applySstLinks(configured, env);

    expect(result.ok && result.config.cloud).toEqual({
      ...configured.cloud,
      enable: true,
      keyValueTable: "steward-dev-ana-KeyValue",
    });
  });

  it("takes the region from the queue URL when neither the file nor AWS_REGION names one", () => {
    const { AWS_REGION: _region, ...env } = linkedEnv;

    const result = applySstLinks(defaultConfig(), env);

    expect(result.ok && result.config.cloud.region).toBe("eu-north-1");
  });

  it("returns the configuration unchanged without SST links, or when no store is linked", () => {
    const config = defaultConfig();

    expect(applySstLinks(config, { AWS_REGION: "eu-west-1" })).toEqual({ ok: true, config });
    expect(applySstLinks(config, { SST_RESOURCE_App: linkedEnv.SST_RESOURCE_App })).toEqual({
      ok: true,
      config,
    });
  });

  it("ignores store links while SST_RESOURCE_App is absent (links are not active)", () => {
    const { SST_RESOURCE_App: _app, ...env } = linkedEnv;

    expect(applySstLinks(defaultConfig(), env)).toEqual({ ok: true, config: defaultConfig() });
  });

  it("reports every malformed link, naming the variable", () => {
    const env = {
      ...linkedEnv,
      SST_RESOURCE_AuditEventQueue: "{not json",
      SST_RESOURCE_KeyValueTable: JSON.stringify({ type: "sst.aws.Dynamo" }),
    };

    expect(applySstLinks(defaultConfig(), env)).toEqual({
      ok: false,
      problems: [
        {
          path: "SST_RESOURCE_AuditEventQueue",
          message: "is not JSON (SST writes each link as a JSON object)",
        },
        { path: "SST_RESOURCE_KeyValueTable", message: 'has no "name" string' },
      ],
    });
  });

  it("asks for a region when no source names one", () => {
    const env = {
      SST_RESOURCE_App: linkedEnv.SST_RESOURCE_App,
      SST_RESOURCE_ScheduleTable: linkedEnv.SST_RESOURCE_ScheduleTable,
    };

    expect(applySstLinks(defaultConfig(), env)).toMatchObject({
      ok: false,
      problems: [{ path: "Service.cloud.region" }],
    });
  });
});
