/**
 * What the Qlik Cloud functions that hand runs on (polling, hand-on) build once per cold start
 * from the StewardConfig secret: the configuration and logger (lambda-runtime.ts), the alerts'
 * dispatcher from the same alert sections as the local process (email, Teams, Slack, outgoing
 * webhooks, the observability platform; each off until configured; their rate-limit windows in
 * the rate-limit table, shared by every instance), the embedded-metrics registry, and the Qlik
 * Cloud input on the linked table. The webhook function builds less (webhook-function-parts.ts).
 * Separate from the entry points so that tests build the same parts against local stand-ins.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createDynamoRateLimitStore } from "../../core/adapters/aws/dynamo-rate-limit-store.ts";
import {
  createEmbeddedMetricsRegistry,
  type EmbeddedMetricsRegistry,
} from "../../core/adapters/aws/embedded-metrics-registry.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { noAlerts, startAlerts } from "../alerts/alerts-part.ts";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { type CloudQlikInput, createCloudQlikInput } from "./cloud-qlik-input.ts";

export interface CloudFunctionOptions {
  /** The StewardConfig secret's YAML text. */
  readonly configText: string | undefined;
  readonly dynamo: DynamoDBClient;
  readonly qlikCloudTable: string;
  /** The linked rate-limit table, where the alerts' rate-limit windows are shared by every instance. */
  readonly rateLimitTable: string;
  readonly clock: Clock;
  /** Where the embedded metrics go (standard output by default). */
  readonly writeMetrics?: (line: string) => void;
  readonly env?: Record<string, string | undefined>;
}

export interface CloudFunctionParts {
  readonly input: CloudQlikInput;
  readonly logger: Logger;
  readonly metrics: EmbeddedMetricsRegistry;
}

export async function cloudFunctionParts(options: CloudFunctionOptions): Promise<CloudFunctionParts> {
  const { config, logger } = lambdaRuntime(options.configText, options.env);
  const { clock } = options;
  const metrics = createEmbeddedMetricsRegistry(options.writeMetrics);
  const alerts = config.qlikCloud.enable
    ? (
        await startAlerts({
          config,
          logger,
          clock,
          metrics,
          sharedRateLimits: createDynamoRateLimitStore({
            client: options.dynamo,
            tableName: options.rateLimitTable,
          }),
        })
      ).dispatcher
    : noAlerts(clock, logger);
  const input = createCloudQlikInput({
    config,
    logger,
    clock,
    dynamo: options.dynamo,
    qlikCloudTable: options.qlikCloudTable,
    alerts,
    metrics,
  });
  return { input, logger, metrics };
}
