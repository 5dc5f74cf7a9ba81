/**
 * CloudWatch alarms of a stack in production (README "Alarms and runbooks"):
 * - the dead-letter queue holds a message: an event failed 5 receives and waits to be inspected
 *   and redriven (nothing else tells anyone it is there, and it is deleted after 14 days);
 * - a function reports errors: an unhandled failure of the ingest or REST function (an answer
 *   the app gives, 4xx or 5xx, is not one) or a consumer batch that failed as a whole (a bad
 *   configuration, a crash; single failed records are partial batch failures and retry).
 * Where they go is chosen at deploy time: `STEWARD_ALARM_TOPIC_ARN` names an existing SNS topic;
 * else `STEWARD_ALARM_EMAIL` creates the "Alarms" topic with that address subscribed (AWS mails
 * a confirmation first); with neither, the alarms only show in the CloudWatch console.
 */
import { auditIngestFunction } from "./audit-ingest.ts";
import { auditConsumerFunction } from "./consumer.ts";
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
const notify = { alarmActions: actions, okActions: actions };

export const deadLetterAlarm = new aws.cloudwatch.MetricAlarm("AuditEventDlqAlarm", {
  alarmDescription:
    "Audit events failed 5 receives and wait in the dead-letter queue: inspect and redrive them " +
    "(README, runbook 'Dead-letter queue').",
  namespace: "AWS/SQS",
  metricName: "ApproximateNumberOfMessagesVisible",
  dimensions: { QueueName: auditEventDlq.nodes.queue.name },
  statistic: "Maximum",
  period: 60,
  evaluationPeriods: 1,
  threshold: 0,
  comparisonOperator: "GreaterThanThreshold",
  treatMissingData: "notBreaching",
  ...notify,
});

const functions = [
  { name: "AuditIngest", fn: auditIngestFunction },
  { name: "Rest", fn: restFunction },
  { name: "AuditConsumer", fn: auditConsumerFunction },
];

export const errorAlarms = functions.map(
  ({ name, fn }) =>
    new aws.cloudwatch.MetricAlarm(`${name}ErrorsAlarm`, {
      alarmDescription: `The ${name} function reported errors: read its log group (README, runbook 'Function errors').`,
      namespace: "AWS/Lambda",
      metricName: "Errors",
      dimensions: { FunctionName: fn.name },
      statistic: "Sum",
      period: 300,
      evaluationPeriods: 1,
      threshold: 0,
      comparisonOperator: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
      ...notify,
    }),
);
