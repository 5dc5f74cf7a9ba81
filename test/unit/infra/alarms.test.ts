import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installSstStub, type SstStub } from "../../helpers/sst-stub.ts";

/** infra/alarms.ts under the stub, with the deploy-time environment `env`. */
async function evaluateAlarms(env: Record<string, string>): Promise<SstStub> {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const stub = installSstStub("production");
  // Computed specifier: infra files are evaluated under the SST stub, not type-checked here.
  const modulePath = "../../../infra/alarms.ts";
  await import(modulePath);
  return stub;
}

describe("infra/alarms.ts", () => {
  let stub: SstStub | undefined;

  beforeEach(() => {
    vi.stubEnv("STEWARD_ALARM_EMAIL", "");
    vi.stubEnv("STEWARD_ALARM_TOPIC_ARN", "");
  });
  afterEach(() => {
    stub?.uninstall();
    vi.unstubAllEnvs();
  });

  const alarms = (s: SstStub) =>
    s.resources.filter((resource) => resource.kind === "pulumi.aws.cloudwatch.MetricAlarm");

  it("with STEWARD_ALARM_EMAIL, sends every alarm and its recovery to a new topic that mails the address", async () => {
    stub = await evaluateAlarms({ STEWARD_ALARM_EMAIL: "ops@example.com" });

    stub.find("aws.SnsTopic", "Alarms");
    expect(stub.find("pulumi.aws.sns.TopicSubscription", "AlarmsEmail").args).toEqual({
      topic: "aws.SnsTopic:Alarms.arn",
      protocol: "email",
      endpoint: "ops@example.com",
    });
    expect(alarms(stub)).toHaveLength(16);
    for (const alarm of alarms(stub)) {
      expect(alarm.args).toMatchObject({
        alarmActions: ["aws.SnsTopic:Alarms.arn"],
        okActions: ["aws.SnsTopic:Alarms.arn"],
      });
    }
  });

  it("alarms when a function is throttled (its reserved concurrency reached)", async () => {
    stub = await evaluateAlarms({});

    for (const name of [
      "AuditIngest",
      "Rest",
      "AuditConsumer",
      "QlikCloudWebhook",
      "QlikCloudPoll",
      "QlikCloudHandOn",
    ]) {
      expect(stub.find("pulumi.aws.cloudwatch.MetricAlarm", `${name}ThrottlesAlarm`).args).toMatchObject({
        namespace: "AWS/Lambda",
        metricName: "Throttles",
        dimensions: { FunctionName: `aws.Function:${name}.name` },
        statistic: "Sum",
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
        treatMissingData: "notBreaching",
      });
    }
  });

  it("alarms when the API answers 5xx (a function closed for want of a token answers 503)", async () => {
    stub = await evaluateAlarms({});

    expect(stub.find("pulumi.aws.cloudwatch.MetricAlarm", "ApiServerErrorsAlarm").args).toMatchObject({
      namespace: "AWS/ApiGateway",
      metricName: "5xx",
      dimensions: { ApiId: "aws.ApiGatewayV2:Api.nodes.api.id" },
      statistic: "Sum",
      threshold: 0,
      comparisonOperator: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
    });
  });

  it("with STEWARD_ALARM_TOPIC_ARN, sends the alarms to that topic and creates none", async () => {
    const topicArn = "arn:aws:sns:eu-west-1:123456789012:ops";
    stub = await evaluateAlarms({
      STEWARD_ALARM_TOPIC_ARN: topicArn,
      STEWARD_ALARM_EMAIL: "ops@example.com",
    });

    expect(stub.resources.filter((resource) => resource.kind === "aws.SnsTopic")).toEqual([]);
    for (const alarm of alarms(stub)) {
      expect(alarm.args).toMatchObject({ alarmActions: [topicArn], okActions: [topicArn] });
    }
  });
});
