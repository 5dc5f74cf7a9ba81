/**
 * The ingest API's cloud stores, for an on-prem agent that shares them (`cloud.enable`): accepted
 * events go to the SQS queue `cloud.eventQueueUrl` (the cloud's consumer function writes the
 * destinations, so the agent runs no local consumer), and the per-client rate-limit counters live
 * in the DynamoDB table `cloud.rateLimitTable`, so one limit holds across every agent and ingest
 * function. The adapters are the ingest function's (functions/audit-ingest/lambda-app.ts).
 *
 * audit-parts.ts imports this module with `import()` only when the route (audit-route.ts) names
 * a cloud store, so the AWS SDK stays out of every other local process. Credentials and endpoints
 * come from the SDK's usual sources (`AWS_PROFILE`, `AWS_ACCESS_KEY_ID`…, `AWS_ENDPOINT_URL_SQS`,
 * `AWS_ENDPOINT_URL_DYNAMODB`).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { createDynamoRateLimitStore } from "../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { createSqsEventQueue } from "../../core/adapters/aws/sqs-event-queue.ts";
import type { Config } from "../../core/config/index.ts";
import type { Clock, Logger, RateLimitStore } from "../../core/ports.ts";
import type { AuditRoute } from "./audit-route.ts";
import { createForwardingQueue } from "./forwarding-queue.ts";
import type { LocalEventQueue } from "./local-ingest.ts";

export interface CloudIngest {
  /** Present when `cloud.eventQueueUrl` is set. */
  queue: LocalEventQueue | undefined;
  /** Present when `cloud.rateLimitTable` is set. */
  rateLimitStore: RateLimitStore | undefined;
  /** Releases the clients' connections (after the queue has stopped). */
  close(): void;
}

export function openCloudIngest(
  cloud: Config["cloud"],
  route: Pick<AuditRoute, "toSqs" | "sharedRateLimit">,
  deps: { clock: Clock; logger: Logger },
): CloudIngest {
  const sqs = route.toSqs ? new SQSClient({ region: cloud.region }) : undefined;
  const dynamo = route.sharedRateLimit ? new DynamoDBClient({ region: cloud.region }) : undefined;
  return {
    queue:
      sqs === undefined
        ? undefined
        : createForwardingQueue(
            createSqsEventQueue({ client: sqs, queueUrl: cloud.eventQueueUrl, ...deps }),
            deps,
          ),
    rateLimitStore:
      dynamo === undefined
        ? undefined
        : createDynamoRateLimitStore({ client: dynamo, tableName: cloud.rateLimitTable }),
    close() {
      sqs?.destroy();
      dynamo?.destroy();
    },
  };
}
