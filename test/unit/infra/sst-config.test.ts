import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentLabel, type RecordedResource, runSstConfig, type SstStub } from "../../helpers/sst-stub.ts";

describe("sst.config.ts", () => {
  let stub: SstStub;
  let app: Record<string, unknown>;
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    ({ stub, app, outputs } = await runSstConfig("production"));
  });
  afterAll(() => stub.uninstall());

  const routes = (api: RecordedResource) =>
    new Map(api.calls.filter((call) => call.method === "route").map((call) => [call.args[0], call.args[1]]));
  const named = (resources: readonly RecordedResource[]) => resources.map(componentLabel);
  const ofKind = (kind: string) => stub.resources.filter((resource) => resource.kind === kind);

  it("names the app and protects and retains the production stage", () => {
    expect(app).toMatchObject({ name: "steward", home: "aws", protect: true, removal: "retain" });
  });

  it("defines one HTTP API without gateway CORS (the apps own CORS), access logs kept a month, every route throttled to 100 requests/s with bursts of 200, and outputs its URL", () => {
    const api = stub.find("aws.ApiGatewayV2", "Api");
    expect(api.args).toEqual({
      cors: false,
      accessLog: { retention: "1 month" },
      transform: {
        stage: { defaultRouteSettings: { throttlingRateLimit: 100, throttlingBurstLimit: 200 } },
      },
    });
    expect(outputs.api).toBe("aws.ApiGatewayV2:Api.url");
    expect(ofKind("aws.ApiGatewayV2")).toEqual([api]);
  });

  it("declares six functions, each on Node 24 (nodejs24.x), arm64, bundled as minified ESM with code splitting, logs kept a month", () => {
    const functions = ofKind("aws.Function");
    expect(functions.map((fn) => fn.name)).toEqual([
      "Rest",
      "AuditIngest",
      "AuditConsumer",
      "QlikCloudWebhook",
      "QlikCloudHandOn",
      "QlikCloudPoll",
    ]);
    for (const fn of functions) {
      expect(fn.args).toMatchObject({
        runtime: "nodejs24.x",
        architecture: "arm64",
        logging: { retention: "1 month" },
        nodejs: { format: "esm", minify: true, splitting: true },
      });
      expect(named((fn.args as { link: RecordedResource[] }).link)).toContain("Secret StewardConfig");
    }
  });

  it("routes GET /v4/ping to the REST function and both documentation paths too", () => {
    const all = routes(stub.find("aws.ApiGatewayV2", "Api"));
    for (const path of ["GET /v4/ping", "GET /documentation/json", "GET /documentation"]) {
      expect(all.get(path)).toBe("aws.Function:Rest.arn");
    }
    expect(stub.find("aws.Function", "Rest").args).toMatchObject({
      handler: "functions/rest/handler.handler",
    });
  });

  it("declares each route once", () => {
    const declared = stub
      .find("aws.ApiGatewayV2", "Api")
      .calls.filter((call) => call.method === "route")
      .map((call) => call.args[0] as string);
    expect(declared.length).toBe(new Set(declared).size);
  });

  it("outputs what the dead-letter runbooks need: each queue's and dead-letter queue's ARNs, the dead-letter URLs and the consumers", () => {
    expect(outputs).toEqual({
      api: "aws.ApiGatewayV2:Api.url",
      queueArn: "aws.Queue:AuditEventQueue.arn",
      deadLetterQueueUrl: "aws.Queue:AuditEventDlq.url",
      deadLetterQueueArn: "aws.Queue:AuditEventDlq.arn",
      consumerFunction: "aws.Function:AuditConsumer.name",
      qlikCloudRunQueueArn: "aws.Queue:QlikCloudRunQueue.arn",
      qlikCloudDeadLetterQueueUrl: "aws.Queue:QlikCloudRunDlq.url",
      qlikCloudDeadLetterQueueArn: "aws.Queue:QlikCloudRunDlq.arn",
      qlikCloudHandOnFunction: "aws.Function:QlikCloudHandOn.name",
    });
  });

  it("declares the on-prem agent as the dev command, linked to the queue, tables and bucket", () => {
    const agent = stub.find("x.DevCommand", "Agent");
    const args = agent.args as { link: RecordedResource[]; environment: Record<string, string> };

    expect(args).toMatchObject({
      dev: { command: "node bin/steward.js start", autostart: true, title: "Steward agent" },
      environment: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    });
    expect(named(args.link)).toEqual([
      "aws.Queue AuditEventQueue",
      "aws.Dynamo RateLimitTable",
      "aws.Dynamo KeyValueTable",
      "aws.Dynamo ScheduleTable",
      "aws.Bucket AuditEventsBucket",
    ]);
  });

  it("alarms on a visible message in each dead-letter queue", () => {
    for (const queue of ["AuditEventDlq", "QlikCloudRunDlq"]) {
      expect(stub.find("pulumi.aws.cloudwatch.MetricAlarm", `${queue}Alarm`).args).toMatchObject({
        namespace: "AWS/SQS",
        metricName: "ApproximateNumberOfMessagesVisible",
        dimensions: { QueueName: `aws.Queue:${queue}.nodes.queue.name` },
        statistic: "Maximum",
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
        treatMissingData: "notBreaching",
      });
    }
  });

  it("alarms on the errors of each function", () => {
    for (const name of [
      "AuditIngest",
      "Rest",
      "AuditConsumer",
      "QlikCloudWebhook",
      "QlikCloudPoll",
      "QlikCloudHandOn",
    ]) {
      expect(stub.find("pulumi.aws.cloudwatch.MetricAlarm", `${name}ErrorsAlarm`).args).toMatchObject({
        namespace: "AWS/Lambda",
        metricName: "Errors",
        dimensions: { FunctionName: `aws.Function:${name}.name` },
        statistic: "Sum",
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
      });
    }
    expect(ofKind("pulumi.aws.cloudwatch.MetricAlarm")).toHaveLength(16);
  });

  it("creates no alarm topic unless asked for one: the alarms have no actions", () => {
    expect(ofKind("aws.SnsTopic")).toEqual([]);
    for (const alarm of ofKind("pulumi.aws.cloudwatch.MetricAlarm")) {
      expect(alarm.args).toMatchObject({ alarmActions: [], okActions: [] });
    }
  });
});
