/**
 * CloudWatch alarms of a stack in production (docs/aws.md, "Alarms and runbooks"):
 * - a dead-letter queue holds a message: an audit event, or a Qlik Cloud run's key, failed 5
 *   receives and waits to be inspected and redriven (nothing else tells anyone it is there, and it
 *   is deleted after 14 days);
 * - a function reports errors: an unhandled failure of the ingest or REST function (an answer
 *   the app gives, 4xx or 5xx, is not one) or a consumer batch that failed as a whole (a bad
 *   configuration, a crash; single failed records are partial batch failures and retry);
 * - a function was throttled: it ran as many instances as its reserved concurrency allows
 *   (infra/limits.ts) and Lambda refused more, a flood or a limit set too low;
 * - the API answered 5xx: above all 503 from a function whose API has no token
 *   (functions/cloud-token.ts), which no function error reports; also an ingest queue that is
 *   unavailable, a throttled function or a failed one;
 * - a Qlik Cloud tenant's polling fell behind: the largest cursor lag the polling function
 *   reports (an embedded metric, without dimensions: one alarm for every tenant) is more than
 *   three polling periods and the two minutes each round reads again, so that two failed rounds
 *   in a row alarm and one does not (docs/qlik-cloud.md, runbook 'Polling lag').
 * Where they go is chosen at deploy time: `STEWARD_ALARM_TOPIC_ARN` names an existing SNS topic;
 * else `STEWARD_ALARM_EMAIL` creates the "Alarms" topic with that address subscribed (AWS mails
 * a confirmation first); with neither, the alarms only show in the CloudWatch console.
 */
import { api } from "./api.ts";
import { auditIngestFunction } from "./audit-ingest.ts";
import { auditConsumerFunction } from "./consumer.ts";
import { qlikCloudPollMinutes } from "./limits.ts";
import {
  qlikCloudHandOnFunction,
  qlikCloudPollFunction,
  qlikCloudRunDlq,
  qlikCloudWebhookFunction,
} from "./qlik-cloud.ts";
import { auditEventDlq } from "./queue.ts";
import { restFunction } from "./rest.ts";

/** ARNs to notify: a topic created here is known only once deployed, so it is an output. */
function alarmActions(): $util.Input<string>[] {
  const topicArn = process.env.STEWARD_ALARM_TOPIC_ARN;
  if (topicArn) return [topicArn];
  const email = process.env.STEWARD_ALARM_EMAIL;
  if (!email) return [];
  const topic = new sst.aws.SnsTopic("Alarms");
  new aws.sns.TopicSubscription("AlarmsEmail", { topic: topic.arn, protocol: "email", endpoint: email });
  return [topic.arn];
}

const actions = alarmActions();

/** What every alarm here shares: any value above zero in one period alarms; no data is no alarm. */
const aboveZero = {
  evaluationPeriods: 1,
  threshold: 0,
  comparisonOperator: "GreaterThanThreshold",
  treatMissingData: "notBreaching",
  alarmActions: actions,
  okActions: actions,
};

export const deadLetterAlarm = new aws.cloudwatch.MetricAlarm("AuditEventDlqAlarm", {
  alarmDescription:
    "Audit events failed 5 receives and wait in the dead-letter queue: inspect and redrive them " +
    "(docs/aws.md, runbook 'Dead-letter queue').",
  namespace: "AWS/SQS",
  metricName: "ApproximateNumberOfMessagesVisible",
  dimensions: { QueueName: auditEventDlq.nodes.queue.name },
  statistic: "Maximum",
  period: 60,
  ...aboveZero,
});

export const qlikCloudDeadLetterAlarm = new aws.cloudwatch.MetricAlarm("QlikCloudRunDlqAlarm", {
  alarmDescription:
    "Qlik Cloud runs' keys failed 5 receives and wait in the dead-letter queue: read the " +
    "QlikCloudHandOn function's log (docs/qlik-cloud.md, runbook 'Runs in the dead-letter queue').",
  namespace: "AWS/SQS",
  metricName: "ApproximateNumberOfMessagesVisible",
  dimensions: { QueueName: qlikCloudRunDlq.nodes.queue.name },
  statistic: "Maximum",
  period: 60,
  ...aboveZero,
});

export const apiServerErrorsAlarm = new aws.cloudwatch.MetricAlarm("ApiServerErrorsAlarm", {
  alarmDescription:
    "The API answered 5xx: a 503 whose message names a token setting means the StewardConfig " +
    "secret lacks it (docs/aws.md, runbook 'API answers 5xx').",
  namespace: "AWS/ApiGateway",
  metricName: "5xx",
  dimensions: { ApiId: api.nodes.api.id },
  statistic: "Sum",
  period: 300,
  ...aboveZero,
});

const functions = [
  { name: "AuditIngest", fn: auditIngestFunction },
  { name: "Rest", fn: restFunction },
  { name: "AuditConsumer", fn: auditConsumerFunction },
  { name: "QlikCloudWebhook", fn: qlikCloudWebhookFunction },
  { name: "QlikCloudPoll", fn: qlikCloudPollFunction },
  { name: "QlikCloudHandOn", fn: qlikCloudHandOnFunction },
];

/** One alarm per function on the Lambda metric `metricName` ("<Function><metricName>Alarm"). */
function functionAlarms(metricName: "Errors" | "Throttles", description: (name: string) => string) {
  return functions.map(
    ({ name, fn }) =>
      new aws.cloudwatch.MetricAlarm(`${name}${metricName}Alarm`, {
        alarmDescription: description(name),
        namespace: "AWS/Lambda",
        metricName,
        dimensions: { FunctionName: fn.name },
        statistic: "Sum",
        period: 300,
        ...aboveZero,
      }),
  );
}

export const errorAlarms = functionAlarms(
  "Errors",
  (name) =>
    `The ${name} function reported errors: read its log group (docs/aws.md, runbook 'Function errors').`,
);

export const throttleAlarms = functionAlarms(
  "Throttles",
  (name) =>
    `The ${name} function reached its reserved concurrency and Lambda refused invocations ` +
    "(docs/aws.md, runbook 'Throttled function').",
);

export const qlikCloudLagAlarm = new aws.cloudwatch.MetricAlarm("QlikCloudPollingLagAlarm", {
  alarmDescription:
    "A Qlik Cloud tenant's polling has not moved its cursor for several rounds: read the " +
    "QlikCloudPoll function's log (docs/qlik-cloud.md, runbook 'Polling lag').",
  namespace: "Steward",
  metricName: "steward_cloud_cursor_lag_seconds",
  statistic: "Maximum",
  period: qlikCloudPollMinutes * 60,
  ...aboveZero,
  threshold: (3 * qlikCloudPollMinutes + 2) * 60,
});
