/**
 * Builds the REST app with every local service on real adapters (WAL key-value store and YAML
 * schedules in a temp dir, file operations over temp approved directories, scheduler on a
 * stepping clock) plus optional broker/observability/chat, for route tests.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { openFileKeyValueStore } from "../../core/adapters/local/file-key-value-store.ts";
import { createFileOperations } from "../../core/adapters/local/local-file-operations.ts";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import { openYamlScheduleStore } from "../../core/adapters/local/yaml-schedule-store.ts";
import { swaggerUiAssets } from "../../core/adapters/swagger-ui-assets.ts";
import { parseConfig } from "../../core/config/index.ts";
import type { KeyValueStore, ScheduleStore, TaskStarter } from "../../core/ports.ts";
import { createScheduleManager } from "../../core/schedules/schedule-manager.ts";
import { type Scheduler, startScheduler } from "../../core/schedules/scheduler.ts";
import { systemClock } from "../../core/system-clock.ts";
import { createApp, type RestAppDeps, type RestServices } from "../../functions/rest/app.ts";
import { type RecordingLogger, recordingLogger } from "./recording-logger.ts";
import { createSteppingClock, type SteppingClock } from "./stepping-clock.ts";

export interface RestTestApp {
  app: Hono;
  dir: string;
  clock: SteppingClock;
  logger: RecordingLogger;
  kv: KeyValueStore;
  scheduleStore: ScheduleStore;
  scheduler: Scheduler;
  startedTasks: string[];
  /** Path under the temp dir. */
  path(...parts: string[]): string;
  close(): Promise<void>;
}

export interface RestTestAppOptions {
  restServer?: Record<string, unknown>;
  services?: Partial<RestServices>;
  /** Reuse files from an earlier app (restart test). */
  dir?: string;
  maxKeysPerNamespace?: number;
  maxNamespaces?: number;
  maxTotalBytes?: number;
}

/** Every endpoint key on. */
export const ALL_ENDPOINTS = {
  apiListEnabledEndpoints: true,
  ping: true,
  base62ToBase16: true,
  base16ToBase62: true,
  fileCopy: true,
  fileMove: true,
  fileDelete: true,
  createDirTableData: true,
  createDir: true,
  keyValueStore: true,
  mqttPublishMessage: true,
  observabilityEvent: true,
  observabilityMetric: true,
  chatPostMessage: true,
  scheduleCreate: true,
  scheduleGet: true,
  scheduleDelete: true,
  scheduleStart: true,
  scheduleStop: true,
  scheduleStatus: true,
};

export async function createRestTestApp(options: RestTestAppOptions = {}): Promise<RestTestApp> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "steward-rest-")));
  const path = (...parts: string[]) => join(dir, ...parts);
  for (const sub of ["copyfrom", "copyto", "movefrom", "moveto", "del", "table", "outside"]) {
    await mkdir(path("files", sub), { recursive: true });
  }
  const parsed = parseConfig({
    Service: {
      restServer: { endpointsEnable: ALL_ENDPOINTS, rateLimit: { enable: false }, ...options.restServer },
      chat: { webhookURL: "http://127.0.0.1:9/unused" },
      fileOperations: { tableDataDirectory: path("files", "table") },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const clock = createSteppingClock(Date.UTC(2026, 0, 1));
  const logger = recordingLogger();
  const kv = await openFileKeyValueStore({
    file: path("data", "key-values.json"),
    clock,
    maxKeysPerNamespace: options.maxKeysPerNamespace ?? 1000,
    ...(options.maxNamespaces === undefined ? {} : { maxNamespaces: options.maxNamespaces }),
    ...(options.maxTotalBytes === undefined ? {} : { maxTotalBytes: options.maxTotalBytes }),
  });
  const scheduleStore = await openYamlScheduleStore({ file: path("data", "schedules.yaml") });
  const startedTasks: string[] = [];
  const taskStarter: TaskStarter = {
    async startTask(taskId) {
      startedTasks.push(taskId);
    },
  };
  const scheduler = await startScheduler({ store: scheduleStore, clock, taskStarter, logger });
  const files = createFileOperations({
    copyApprovedDirectories: [
      { fromDirectory: path("files", "copyfrom"), toDirectory: path("files", "copyto") },
    ],
    moveApprovedDirectories: [
      { fromDirectory: path("files", "movefrom"), toDirectory: path("files", "moveto") },
    ],
    deleteApprovedDirectories: [path("files", "del")],
    tableDataDirectory: path("files", "table"),
  });
  const app = createApp({
    config: parsed.config.restServer,
    logger,
    clock,
    rateLimitStore: createMemoryRateLimitStore(),
    clientIp: () => "192.0.2.1",
    explorerAssets: swaggerUiAssets(),
    services: {
      keyValues: kv,
      schedules: createScheduleManager({ store: scheduleStore, clock, runner: scheduler }),
      files,
      ...options.services,
    },
  });
  return {
    app,
    dir,
    clock,
    logger,
    kv,
    scheduleStore,
    scheduler,
    startedTasks,
    path,
    async close() {
      await scheduler.stop();
      await kv.close();
      await scheduleStore.close();
    },
  };
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** JSON request init. */
export function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** The stores every REST app is given, as the local runtime gives them (system clock, counters in memory). */
export function localEdgeDeps(): Pick<RestAppDeps, "clock" | "rateLimitStore"> {
  return { clock: systemClock, rateLimitStore: createMemoryRateLimitStore() };
}
