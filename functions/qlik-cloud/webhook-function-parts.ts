/**
 * What the Qlik Cloud webhook function builds once per cold start from the StewardConfig secret:
 * the configuration and logger (lambda-runtime.ts), the embedded-metrics registry, and the
 * receiving part of the Qlik Cloud input (cloud-qlik-input.ts): each run stored in the linked
 * table, then its key sent to the runs' queue. No alerts, no tenant clients, no rate-limit table:
 * the hand-on function (cloud-function-parts.ts) does all that, so a delivery's answer waits for
 * DynamoDB and SQS only. Separate from the entry point so that tests build the same parts
 * against local stand-ins.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  createEmbeddedMetricsRegistry,
  type EmbeddedMetricsRegistry,
} from "../../core/adapters/aws/embedded-metrics-registry.ts";
import type { Clock, CloudRunQueue, Logger } from "../../core/ports.ts";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { type CloudWebhookInput, createCloudWebhookInput } from "./cloud-qlik-input.ts";

export interface WebhookFunctionOptions {
  /** The StewardConfig secret's YAML text. */
  readonly configText: string | undefined;
  readonly dynamo: DynamoDBClient;
  readonly qlikCloudTable: string;
  /** The runs' queue, consumed by the hand-on function. */
  readonly queue: CloudRunQueue;
  readonly clock: Clock;
  /** Where the embedded metrics go (standard output by default). */
  readonly writeMetrics?: (line: string) => void;
  readonly env?: Record<string, string | undefined>;
}

export interface WebhookFunctionParts {
  readonly input: CloudWebhookInput;
  readonly logger: Logger;
  readonly metrics: EmbeddedMetricsRegistry;
}

export function webhookFunctionParts(options: WebhookFunctionOptions): WebhookFunctionParts {
  const { config, logger } = lambdaRuntime(options.configText, options.env);
  const metrics = createEmbeddedMetricsRegistry(options.writeMetrics);
  const input = createCloudWebhookInput({
    config,
    logger,
    clock: options.clock,
    dynamo: options.dynamo,
    qlikCloudTable: options.qlikCloudTable,
    queue: options.queue,
    metrics,
  });
  return { input, logger, metrics };
}
