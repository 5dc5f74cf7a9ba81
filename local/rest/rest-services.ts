/**
 * The REST API's local services (key-value store, schedules and the scheduler, files, broker,
 * observability, chat, platform), chosen once from the config: DynamoDB tables when
 * `cloud.enable` names them (an on-prem agent sharing the cloud stores), local files otherwise.
 * With the schedules in DynamoDB, several agents fire them; a lease in the same table lets one
 * agent start each occurrence (its owner: the instance id under `./data/` and the process id).
 * With `platform.host` set, the platform client serves the app and reload-task endpoints and
 * starts the tasks of firing schedules; without it, a firing schedule is logged as not started.
 */
import { resolve } from "node:path";
import { openFileKeyValueStore } from "../../core/adapters/local/file-key-value-store.ts";
import { loadOrCreateInstanceId } from "../../core/adapters/local/instance-id-file.ts";
import { createFileOperations } from "../../core/adapters/local/local-file-operations.ts";
import { createMemoryScheduleLease } from "../../core/adapters/local/memory-schedule-lease.ts";
import { openYamlScheduleStore } from "../../core/adapters/local/yaml-schedule-store.ts";
import {
  buildChatPoster,
  buildObservabilityPoster,
  buildPublisher,
} from "../../core/adapters/outbound-services.ts";
import type { Config } from "../../core/config/index.ts";
import { createPlatformTaskStarter } from "../../core/platform/task-starter.ts";
import type { Clock, Logger, MessagePublisher } from "../../core/ports.ts";
import { createLoggingTaskStarter } from "../../core/schedules/logging-task-starter.ts";
import { createScheduleManager } from "../../core/schedules/schedule-manager.ts";
import { startScheduler } from "../../core/schedules/scheduler.ts";
import type { RestServices } from "../../functions/rest/app.ts";
import { INSTANCE_ID_FILE } from "../agent/telemetry.ts";
import { openPlatformClient } from "../open-platform-client.ts";

export interface LocalRestServices {
  services: RestServices;
  stop(): Promise<void>;
}

export async function startRestServices(
  config: Config,
  logger: Logger,
  deps: { clock: Clock; cwd: string },
): Promise<LocalRestServices> {
  const endpoints = config.restServer.endpointsEnable;
  // First: reading the broker's TLS files may fail, and then nothing else has been opened yet.
  const publisher = endpoints.mqttPublishMessage
    ? buildPublisher(config, logger, { cwd: deps.cwd })
    : undefined;
  try {
    return await startWithPublisher(config, logger, deps, publisher);
  } catch (error) {
    await publisher?.close();
    throw error;
  }
}

async function startWithPublisher(
  config: Config,
  logger: Logger,
  deps: { clock: Clock; cwd: string },
  publisher: MessagePublisher | undefined,
): Promise<LocalRestServices> {
  const { clock } = deps;
  const platform =
    config.platform.host === ""
      ? undefined
      : await openPlatformClient(config, config.platform.host, { logger, clock, cwd: deps.cwd });
  const background = new Set<Promise<unknown>>();
  const maxKeysPerNamespace = config.keyValueStore.maxKeysPerNamespace;
  // Loaded only with cloud.enable: the AWS SDK stays out of every other local process.
  const cloud = config.cloud.enable
    ? (await import("./cloud-rest-stores.ts")).openCloudRestStores(config.cloud, {
        clock,
        maxKeysPerNamespace,
        leaseOwner: `${await loadOrCreateInstanceId(resolve(deps.cwd, INSTANCE_ID_FILE))}/${process.pid}`,
      })
    : undefined;
  const kv =
    cloud?.keyValues ??
    (await openFileKeyValueStore({
      file: resolve(deps.cwd, config.keyValueStore.storeFile),
      clock,
      maxKeysPerNamespace,
    }));
  const sharedSchedules = cloud?.schedules !== undefined;
  const scheduleStore =
    cloud?.schedules ??
    (await openYamlScheduleStore({ file: resolve(deps.cwd, config.scheduler.storeFile) }));
  const schedulerLogger = logger.child("scheduler");
  const scheduler = config.scheduler.enable
    ? await startScheduler({
        store: scheduleStore,
        clock,
        logger: schedulerLogger,
        taskStarter: platform
          ? createPlatformTaskStarter(platform)
          : createLoggingTaskStarter(schedulerLogger),
        lease: cloud?.scheduleLease ?? createMemoryScheduleLease({ owner: String(process.pid) }),
        ...(sharedSchedules ? { pollIntervalMs: 60_000 } : {}),
      })
    : undefined;
  const services: RestServices = {
    ...(config.keyValueStore.enable ? { keyValues: kv } : {}),
    schedules: createScheduleManager({
      store: scheduleStore,
      clock,
      ...(scheduler ? { runner: scheduler } : {}),
    }),
    files: createFileOperations(config.fileOperations),
    ...(publisher ? { publisher } : {}),
    observability: buildObservabilityPoster(config, clock, logger),
    chat: buildChatPoster(config),
    ...(platform
      ? {
          platform: {
            platform,
            kv: config.keyValueStore.enable ? kv : undefined,
            trackBackgroundWork: (work: Promise<unknown>) => {
              background.add(work);
              void work.finally(() => background.delete(work));
            },
          },
        }
      : {}),
  };
  return {
    services,
    async stop() {
      await scheduler?.stop();
      // App reloads answered 202 run on; their follow-up task starts need the client.
      await Promise.allSettled(background);
      platform?.close();
      await publisher?.close();
      await kv.close();
      await scheduleStore.close();
      cloud?.close();
    },
  };
}
