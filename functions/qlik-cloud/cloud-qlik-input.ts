/**
 * The Qlik Cloud inputs as the cloud functions run them, built once per cold start of the webhook
 * and the polling function from the same core pieces as the local process
 * (local/qlik-cloud/qlik-cloud-input.ts), with what lasts between invocations in DynamoDB:
 * - the runs' inbox is the Qlik Cloud table (core/adapters/aws/dynamo-cloud-run-inbox.ts): a
 *   webhook's run is stored there before its 2xx, and a run is new to exactly one invocation,
 *   whichever instance and input took it;
 * - every run goes to the same CloudRunHandler as locally (tenant-wiring.ts: its log line, its
 *   point when the time-series database is on, its alert to the dispatcher the function built
 *   from the same alert sections of the configuration);
 * - the licences of the tenants whose `licences.enable` is on, read by the polling function when
 *   due on `licenseMonitor.frequency` (poll-lambda.ts), to the same points as locally; the cloud
 *   has no `/metrics`, so no licence gauges;
 * - the inputs' counts and cursor lag, which the local process serves on `/metrics`, are written
 *   as CloudWatch embedded metrics at the end of every invocation.
 * A function cannot work after it answered (Lambda freezes it), so `settle` waits for the runs
 * being handed on; a run whose handing failed, or outlasted the function, stays pending in the
 * table and the next polling invocation hands it on (PENDING_AFTER_MS after it was written).
 * The webhook function builds only the receiving part (`createCloudWebhookInput`): its intake
 * stores a run and sends its key to the runs' queue, and the hand-on function, with the full
 * input, takes it from the table and hands it on. With `qlikCloud.enable` off, no tenant is taken.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createDynamoCloudRunInbox } from "../../core/adapters/aws/dynamo-cloud-run-inbox.ts";
import type { EmbeddedMetricsRegistry } from "../../core/adapters/aws/embedded-metrics-registry.ts";
import type { AlertDispatcher } from "../../core/alerts/index.ts";
import type { Config, QlikCloudTenantConfig } from "../../core/config/index.ts";
import type { Clock, CloudRunQueue, Logger } from "../../core/ports.ts";
import type { CloudTenantOutputs, TenantLicences } from "../../core/qlik-cloud/index.ts";
import {
  type CloudInputMonitor,
  type CloudRunIntake,
  createCloudInputMonitor,
  createCloudRunIntake,
} from "../../core/qlik-cloud/index.ts";
import { parseRecurrence, type Recurrence } from "../../core/shared/recurrence.ts";
import { cloudRunOutputsOf, tenantClients, tenantLicencesOf } from "./tenant-wiring.ts";

/**
 * How long a pending run is left to the invocation that took or claimed it: longer than the
 * hand-on function's time limit (infra/qlik-cloud.ts, 45 s) with room to spare.
 */
export const PENDING_AFTER_MS = 60_000;

export interface CloudQlikInputDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly dynamo: DynamoDBClient;
  /** The linked Qlik Cloud table's name. */
  readonly qlikCloudTable: string;
  /** Where the failed and canceled runs' alerts go. */
  readonly alerts: Pick<AlertDispatcher, "dispatch" | "destinations">;
  readonly metrics: EmbeddedMetricsRegistry;
  /** Relative paths of the settings resolve from here (a Lambda's task directory). */
  readonly cwd?: string;
}

/** What the webhook function needs of the input: its tenants, an intake, the monitor, the log. */
export interface CloudWebhookInput {
  /** The configured tenants, none while `qlikCloud.enable` is off. */
  readonly tenants: readonly QlikCloudTenantConfig[];
  readonly intake: CloudRunIntake;
  readonly monitor: CloudInputMonitor;
  readonly logger: Logger;
  /** Waits for the runs being handed on, then writes the invocation's metrics. */
  settle(): Promise<void>;
}

export interface CloudQlikInput extends CloudWebhookInput {
  readonly clients: ReadonlyMap<string, CloudTenantOutputs>;
  /** The tenants' licence reading and its schedule; undefined when no tenant's licences are read. */
  readonly licences: { readonly reading: TenantLicences; readonly recurrence: Recurrence } | undefined;
}

/** The tenants, the logger and the monitor with each tenant's inputs declared, and the table's inbox. */
function receivingParts(
  deps: Pick<CloudQlikInputDeps, "config" | "logger" | "clock" | "dynamo" | "qlikCloudTable" | "metrics">,
) {
  const { config, clock, metrics } = deps;
  const logger = deps.logger.child("qlik-cloud");
  const tenants = config.qlikCloud.enable ? config.qlikCloud.tenants : [];
  const monitor = createCloudInputMonitor(metrics, clock);
  for (const tenant of tenants)
    monitor.declareTenant(tenant.name, [
      ...(tenant.webhook.enable ? (["webhook"] as const) : []),
      ...(tenant.poll.enable ? (["poll"] as const) : []),
    ]);
  const inbox = createDynamoCloudRunInbox({
    client: deps.dynamo,
    tableName: deps.qlikCloudTable,
    clock,
    pendingAfterMs: PENDING_AFTER_MS,
  });
  return { logger, tenants, monitor, inbox };
}

export interface CloudWebhookInputDeps
  extends Pick<CloudQlikInputDeps, "config" | "logger" | "clock" | "dynamo" | "qlikCloudTable" | "metrics"> {
  /** Where each new run's key is sent, for the hand-on function. */
  readonly queue: CloudRunQueue;
}

/** The webhook function's input: its intake stores each run and sends its key to `queue`. */
export function createCloudWebhookInput(deps: CloudWebhookInputDeps): CloudWebhookInput {
  const { logger, tenants, monitor, inbox } = receivingParts(deps);
  const intake = createCloudRunIntake({ inbox, queue: deps.queue, monitor, logger });
  return {
    tenants,
    intake,
    monitor,
    logger,
    async settle() {
      await intake.settled();
      deps.metrics.flush();
    },
  };
}

export function createCloudQlikInput(deps: CloudQlikInputDeps): CloudQlikInput {
  const { config, clock, metrics } = deps;
  const { logger, tenants, monitor, inbox } = receivingParts(deps);
  const clients = tenantClients(tenants, clock, monitor);
  const intake = createCloudRunIntake({
    inbox,
    handler: cloudRunOutputsOf({
      config,
      tenants: clients,
      alerts: deps.alerts,
      logger,
      cwd: deps.cwd ?? process.cwd(),
    }),
    monitor,
    logger,
  });
  const reading = tenantLicencesOf({
    config,
    tenants: clients,
    clock,
    logger,
    cwd: deps.cwd ?? process.cwd(),
  });
  return {
    tenants,
    clients,
    intake,
    monitor,
    logger,
    licences:
      reading === undefined
        ? undefined
        : { reading, recurrence: parseRecurrence(config.licenseMonitor.frequency) },
    async settle() {
      await intake.settled();
      metrics.flush();
    },
  };
}
