/**
 * The Qlik Cloud functions (functions/qlik-cloud/) as their entry points build them, against
 * local stand-ins: each function's parts from a StewardConfig text, on a dynalite table, with the
 * embedded metrics each invocation writes kept for the test; a signed delivery as API Gateway
 * hands it to the webhook function; the runs' queue (local-aws-sqs) consumed by the hand-on
 * function as Lambda's poller does; and the counts the metrics lines carry.
 */
import { DeleteMessageCommand } from "@aws-sdk/client-sqs";
import type { SQSRecord } from "aws-lambda";
import { stringify } from "yaml";
import { signWebhookBody } from "../../core/qlik-cloud/webhook-signature.ts";
import type { HandOnLambda } from "../../functions/qlik-cloud/hand-on-lambda.ts";
import { apiGatewayEvent } from "./api-gateway-event.ts";
import {
  type CloudOutputs,
  type CloudTenant,
  cloudOutputSections,
  cloudTenantEntries,
} from "./qlik-cloud-steward.ts";
import type { LocalSqs } from "./sqs-records.ts";

/**
 * The StewardConfig of a stack taking `tenants` (webhook and polling on), alerting failed reloads
 * by Teams, an outgoing webhook and, with `outputs.smtpPort`, email, and writing their points to
 * InfluxDB 1.x: the same sections as `steward start`'s configuration in the tests.
 */
export function cloudFunctionConfig(tenants: readonly CloudTenant[], outputs: CloudOutputs): string {
  return stringify({
    Service: {
      logLevel: "warn",
      ...cloudOutputSections(outputs),
      qlikCloud: { enable: true, tenants: cloudTenantEntries(tenants, { enable: true }) },
    },
  });
}

/** A delivery of `body` to `tenant`'s webhook route, signed with `secret`, as API Gateway passes it on. */
export function signedDelivery(
  tenant: string,
  body: string,
  secret: string,
  options: { readonly base64?: boolean } = {},
) {
  const event = apiGatewayEvent({
    method: "POST",
    path: `/api/v1/qlik-cloud/webhooks/${tenant}`,
    headers: { "content-type": "application/json", "qlik-signature": signWebhookBody(body, secret) },
    body: options.base64 === true ? Buffer.from(body, "utf8").toString("base64") : body,
  });
  return { ...event, isBase64Encoded: options.base64 === true };
}

/** The sum of `metric` over the embedded-metrics lines whose dimensions include `labels`. */
export function emfCount(lines: readonly string[], metric: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of lines) {
    const document = JSON.parse(line) as Record<string, unknown>;
    if (typeof document[metric] !== "number") continue;
    if (Object.entries(labels).every(([name, value]) => document[name] === value))
      total += document[metric] as number;
  }
  return total;
}

/**
 * What Lambda's poller does for the hand-on function: receives the runs' queue's messages,
 * invokes `handOn` with them in one batch (none when the queue is empty), and deletes those it
 * did not report failed. Answers the records handed over, for a test to deliver them again, and
 * the ids of those reported failed.
 */
export async function consumeQueued(
  sqs: LocalSqs,
  handOn: HandOnLambda,
): Promise<{ readonly records: SQSRecord[]; readonly failed: string[] }> {
  const records = await sqs.receive(100);
  if (records.length === 0) return { records, failed: [] };
  const { batchItemFailures } = await handOn({ Records: records });
  const failed = batchItemFailures.map((failure) => failure.itemIdentifier);
  for (const record of records)
    if (!failed.includes(record.messageId))
      await sqs.client.send(
        new DeleteMessageCommand({ QueueUrl: sqs.queueUrl, ReceiptHandle: record.receiptHandle }),
      );
  return { records, failed };
}
