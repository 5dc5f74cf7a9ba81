/**
 * The REST API's local services (key-value store, schedules and the scheduler, files, broker
 * publish through the process's one connection, observability, chat, platform), chosen once from the config: DynamoDB tables when
 * `cloud.enable` names them (an on-prem agent sharing the cloud stores), local files otherwise.
 * With the schedules in DynamoDB, several agents fire them; a lease in the same table lets one
 * agent start each occurrence (its owner: the instance id under `./data/` and the process id).
 * With `platform.host` set, the platform client serves the app and reload-task endpoints and
 * starts the tasks of firing schedules; without it, a firing schedule is logged as not started.
 * Local store files that cannot be opened at start (a read-only or unusable data directory) do
 * not stop Steward: they are opened as soon as they can be, their endpoints answer 503 meanwhile
 * and `storeAvailability` tells the status page and the health check
 * (recovering-key-value-store.ts, local-schedules.ts).
 */
import { resolve } from "node:path";
import { loadOrCreateInstanceId } from "../../core/adapters/local/instance-id-file.ts";
import { createFileOperations } from "../../core/adapters/local/local-file-operations.ts";
import { createMemoryScheduleLease } from "../../core/adapters/local/memory-schedule-lease.ts";
import type { StoreAvailability } from "../../core/adapters/local/opened-or-refused.ts";
import { openRecoveringKeyValueStore } from "../../core/adapters/local/recovering-key-value-store.ts";
import { buildChatClient, buildObservabilityClient } from "../../core/adapters/outbound-clients.ts";
import type { Config } from "../../core/config/index.ts";
import { createDisabledBrokerClient } from "../../core/messaging/disabled-broker-client.ts";
import { createPlatformTaskStarter } from "../../core/platform/task-starter.ts";
import type { BrokerClient, Clock, KeyValueStore, Logger, PlatformClient } from "../../core/ports.ts";
import { createLoggingTaskStarter, createScheduleManager } from "../../core/schedules/index.ts";
import type { RestServices } from "../../functions/rest/app.ts";
import { INSTANCE_ID_FILE } from "../agent/telemetry.ts";
import { openPlatformClient } from "../open-platform-client.ts";
import type { TaskStartRules } from "../task-start-rules.ts";
import type { CloudRestStores } from "./cloud-rest-stores.ts";
import { openLocalSchedules, type SchedulerSettings, sharedSchedules } from "./local-schedules.ts";

export interface LocalRestServices {
  services: RestServices;
  /** The state of each local store file (none on cloud stores), by status name. */
  storeAvailability: Record<string, () => StoreAvailability>;
  stop(): Promise<void>;
}

export interface RestServicesDeps {
  clock: Clock;
  cwd: string;
  /**
   * The process's broker connection (local/broker-connection.ts), opened and closed by its own
   * service; undefined when `mqttConfig.enable` is false, and the broker endpoint then answers 503.
   */
  broker?: BrokerClient | undefined;
  /** The start filter and counts the task start shares with the broker's start topic (task-start-rules.ts). */
  taskStarts?: TaskStartRules | undefined;
}

/**
 * The schedules and, with `scheduler.enable`, their scheduler: in DynamoDB when `cloud` names a
 * schedule table, in the local file otherwise. Firing schedules start their tasks through the
 * platform client, or are logged as not started without one.
 */
async function openSchedules({
  config,
  logger,
  deps,
  platform,
  cloud,
}: {
  config: Config;
  logger: Logger;
  deps: RestServicesDeps;
  platform: PlatformClient | undefined;
  cloud: CloudRestStores | undefined;
}) {
  const { clock } = deps;
  const schedulerLogger = logger.child("scheduler");
  const schedulerSettings: SchedulerSettings | undefined = config.scheduler.enable
    ? {
        clock,
        logger: schedulerLogger,
        taskStarter: platform
          ? createPlatformTaskStarter(platform)
          : createLoggingTaskStarter(schedulerLogger),
        lease: cloud?.scheduleLease ?? createMemoryScheduleLease({ owner: String(process.pid) }),
        // With the schedules in DynamoDB, other agents change them too.
        ...(cloud?.schedules !== undefined ? { pollIntervalMs: 60_000 } : {}),
      }
    : undefined;
  return cloud?.schedules !== undefined
    ? await sharedSchedules(cloud.schedules, schedulerSettings)
    : await openLocalSchedules({
        file: resolve(deps.cwd, config.scheduler.storeFile),
        clock,
        logger: schedulerLogger,
        scheduler: schedulerSettings,
      });
}

export async function startRestServices(
  config: Config,
  logger: Logger,
  deps: RestServicesDeps,
): Promise<LocalRestServices> {
  const { clock } = deps;
  const broker = config.restServer.endpointsEnable.mqttPublishMessage
    ? (deps.broker ?? createDisabledBrokerClient())
    : undefined;
  const platform =
    config.platform.host === ""
      ? undefined
      : await openPlatformClient(config, config.platform.host, { logger, clock, cwd: deps.cwd });
  const background = new Set<Promise<unknown>>();
  const { maxKeysPerNamespace, maxNamespaces, maxTotalBytes } = config.keyValueStore;
  // Loaded only with cloud.enable: the AWS SDK stays out of every other local process.
  const cloud = config.cloud.enable
    ? (await import("./cloud-rest-stores.ts")).openCloudRestStores(config.cloud, {
        clock,
        maxKeysPerNamespace,
        maxNamespaces,
        maxTotalBytes,
        leaseOwner: `${await loadOrCreateInstanceId(resolve(deps.cwd, INSTANCE_ID_FILE))}/${process.pid}`,
      })
    : undefined;
  // A disabled key-value store is not opened: nothing uses it.
  const localKv =
    cloud?.keyValues === undefined && config.keyValueStore.enable
      ? await openRecoveringKeyValueStore({
          file: resolve(deps.cwd, config.keyValueStore.storeFile),
          clock,
          maxKeysPerNamespace,
          maxNamespaces,
          maxTotalBytes,
          logger: logger.child("key-values"),
        })
      : undefined;
  const kv: KeyValueStore | undefined = cloud?.keyValues ?? localKv;
  const schedules = await openSchedules({ config, logger, deps, platform, cloud });
  const services: RestServices = {
    ...(config.keyValueStore.enable && kv !== undefined ? { keyValues: kv } : {}),
    schedules: createScheduleManager({
      store: schedules.store,
      clock,
      ...(schedules.runner ? { runner: schedules.runner } : {}),
    }),
    files: createFileOperations(config.fileOperations),
    ...(broker ? { broker } : {}),
    observability: buildObservabilityClient(config, clock, logger),
    chat: buildChatClient(config),
    ...(platform
      ? {
          platform: {
            platform,
            kv: config.keyValueStore.enable ? kv : undefined,
            ...(deps.taskStarts === undefined
              ? {}
              : { startFilter: deps.taskStarts.filter, startCounts: deps.taskStarts.counts }),
            trackBackgroundWork: (work: Promise<unknown>) => {
              background.add(work);
              void work.finally(() => background.delete(work));
            },
          },
        }
      : {}),
  };
  const storeAvailability: Record<string, () => StoreAvailability> = {};
  if (localKv !== undefined) storeAvailability.keyValues = () => localKv.availability();
  const scheduleAvailability = schedules.availability;
  if (scheduleAvailability !== undefined) storeAvailability.schedules = () => scheduleAvailability();
  return {
    services,
    storeAvailability,
    async stop() {
      await schedules.stop();
      // App reloads answered 202 run on; their follow-up task starts need the client.
      await Promise.allSettled(background);
      platform?.close();
      await kv?.close();
      cloud?.close();
    },
  };
}
