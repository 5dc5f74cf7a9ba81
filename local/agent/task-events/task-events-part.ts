/**
 * Reload-task events as an agent part (`taskEvents.enable`): a third UDP listener on
 * `taskEvents.udpServerConfig.portTaskEvents`, with the queue, rate limit, source validation,
 * drop counting, queue metrics and kernel drops of every UDP listener (udp-pipeline.ts), whose
 * processor de-duplicates each event, looks it up in the repository once (over the platform's
 * client certificate) and hands the alert to the records of the run (task-run-records.ts) and to
 * the alerts part's dispatcher (`alerts`), every destination that takes its kind.
 *
 * On the broker, when `mqttConfig.taskFailureServerStatusTopic` is set, the listener's status
 * (task-failure-server-status.ts). On the status page: the listener, its queue, the last events (`taskEvents.last`) and, for the
 * records and every alert channel, the counts and last error of its task alerts
 * (`alertDestinations`). Stopping: the socket closes, lookups still running get
 * `LOOKUP_GRACE_MS` before they are given up (their alerts then go out with "not available"), and
 * the queue hands over its last datagram; the alerts part, started before, stops after.
 */
import { hostname } from "node:os";
import { createTaskRepository } from "../../../core/adapters/platform/repository-task-events.ts";
import {
  type AlertDestination,
  type AlertDispatcher,
  createAlertDispatcher,
  type TaskAlert,
} from "../../../core/alerts/index.ts";
import type { StatusBoard } from "../../../core/monitoring/index.ts";
import type { Clock, Stoppable, TimerHandle } from "../../../core/ports.ts";
import {
  createRecentTaskEvents,
  createTaskDeduplication,
  createTaskEventCounts,
  createTaskEventProcessor,
  DEFAULT_ENRICHMENT_OPTIONS,
  dispatchTaskRun,
  type EnrichmentOptions,
  enrichTaskEvent,
  type RecentTaskEvents,
  type TaskEventCounts,
  type TaskRepository,
} from "../../../core/task-events/index.ts";
import { registerUdpQueueMetrics } from "../../../core/udp/index.ts";
import { openRepositoryClient } from "../../open-platform-client.ts";
import type { WritingAgentPart, WritingAgentPartDeps } from "../agent-part.ts";
import { createProcNetUdpReader, type KernelDropReader } from "../kernel-drop-reader.ts";
import { startScriptLogFiles } from "../script-log-files.ts";
import { startUdpListener, type UdpListenerView } from "../udp-pipeline.ts";
import { UdpBindError } from "../udp-socket.ts";
import { udpListenerStatus } from "../udp-status.ts";
import { taskFailureServerStatus } from "./task-failure-server-status.ts";
import { taskRunRecords } from "./task-run-records.ts";

/** How long lookups still running at stop may take before they are given up. */
export const LOOKUP_GRACE_MS = 2000;

export interface TaskEventsDeps extends WritingAgentPartDeps {
  /** The records of every run; those the configuration switches on (task-run-records.ts) by default. */
  records?: readonly AlertDestination<TaskAlert>[];
  /** The repository; the platform's, over its client certificate, by default. */
  repository?: TaskRepository;
  enrichment?: EnrichmentOptions;
  kernelDrops?: KernelDropReader;
}

export interface TaskEvents extends Stoppable {
  readonly listener: UdpListenerView;
}

export const taskEventsPart: WritingAgentPart = {
  name: "task-events",
  enabled: (config) => config.taskEvents.enable,
  writes: true,
  start: (deps) => startTaskEvents(deps),
};

export async function startTaskEvents(deps: TaskEventsDeps): Promise<TaskEvents> {
  const { config, clock, status, metrics } = deps;
  const logger = deps.logger.child("task-events");
  const started: Stoppable[] = [];
  const stopStarted = async () => {
    for (const part of started.splice(0).reverse()) {
      await part.stop().catch((error: unknown) => {
        logger.error("stopping a task-event part failed", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
  };
  try {
    const repository = deps.repository ?? (await openRepository(deps, started));
    const records = createAlertDispatcher({
      destinations: deps.records ?? taskRunRecords(deps),
      clock,
      logger,
      metrics,
    });
    const lookups = lookupsWithGrace(clock);
    // Stopped after the queue has handed over its last datagram: no lookup is given up later.
    started.push({ stop: async () => lookups.cancelGrace() });
    const scriptLogFiles = await startScriptLogFiles({
      settings: config.taskEvents.scriptLogFiles,
      cwd: deps.cwd,
      clock,
      logger,
      metrics,
      status,
    });
    if (scriptLogFiles !== undefined) started.push(scriptLogFiles);
    const counts = createTaskEventCounts(metrics);
    const recent = createRecentTaskEvents();
    const processor = createTaskEventProcessor({
      deduplication: createTaskDeduplication({
        windowMs: config.taskEvents.deduplication.windowSeconds * 1000,
      }),
      enrich: (event) =>
        enrichTaskEvent(event, deps.enrichment ?? DEFAULT_ENRICHMENT_OPTIONS, {
          repository,
          clock,
          signal: lookups.signal,
        }),
      dispatch: dispatchTaskRun(records.dispatch, deps.alerts.dispatch),
      scriptLogFiles: scriptLogFiles?.files,
      counts,
      recent,
      logger,
      clock,
    });
    const settings = config.taskEvents.udpServerConfig;
    const readKernelDrops = deps.kernelDrops ?? createProcNetUdpReader();
    const serverStatus = taskFailureServerStatus(config, deps.connections.broker, logger);
    const listener = await startUdpListener(
      {
        name: "task_events",
        label: "Task events",
        settings: { ...settings, port: settings.portTaskEvents },
        processor,
        onSocketError: () => void serverStatus("error"),
      },
      {
        connections: deps.connections,
        host: hostname(),
        version: config.timeseriesdbConfig.version,
        readKernelDrops,
        clock,
        logger,
        started,
      },
    ).catch(async (error: unknown) => {
      if (error instanceof UdpBindError) await serverStatus("error");
      throw error;
    });
    void serverStatus("start");
    // Stopped first: lookups get their grace while the socket closes and the queue drains.
    started.push({ stop: async () => lookups.beginGrace() });
    registerUdpQueueMetrics(
      metrics,
      [listener.queue],
      () => listener.kernelDrops.count(),
      readKernelDrops.platformReports,
    );
    showTaskEventStatus(status, { listener, recent, counts, dispatchers: [records, deps.alerts] });
    let stopping: Promise<void> | undefined;
    return { listener, stop: () => (stopping ??= stopStarted()) };
  } catch (error) {
    await stopStarted();
    throw error;
  }
}

/** The listener, its queue, the last events and each destination's totals of task alerts on the status page. */
function showTaskEventStatus(
  status: StatusBoard,
  shown: {
    listener: UdpListenerView;
    recent: RecentTaskEvents;
    counts: TaskEventCounts;
    /** The records' and the alert channels', in the order their answers are named. */
    dispatchers: readonly AlertDispatcher<TaskAlert>[];
  },
): void {
  const { listener, recent, counts } = shown;
  const { queue, socket } = listener;
  status.countEvents(() => queue.counters().received);
  status.set("udpQueues", queue.name, () => udpListenerStatus(listener));
  status.set("listeners", `UDP ${queue.name}`, () => ({
    state: "listening",
    url: `udp://${socket.address}:${socket.port}`,
  }));
  status.set("taskEvents", "last", () => recent.list());
  status.set("taskEvents", "counts", () => counts.totals());
  // Task alerts are counted under the destination's own name (totalsKey).
  for (const dispatcher of shown.dispatchers)
    for (const { name } of dispatcher.destinations)
      status.set("alertDestinations", name, () => dispatcher.totals(name));
}

/**
 * The signal of every lookup: `beginGrace` gives them LOOKUP_GRACE_MS, then aborts them;
 * `cancelGrace` clears that timer once nothing can be looked up any more.
 */
function lookupsWithGrace(clock: Clock) {
  const controller = new AbortController();
  let timer: TimerHandle | undefined;
  return {
    signal: controller.signal,
    beginGrace() {
      timer ??= clock.setTimeout(() => controller.abort(), LOOKUP_GRACE_MS);
    },
    cancelGrace() {
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}

async function openRepository(deps: TaskEventsDeps, started: Stoppable[]): Promise<TaskRepository> {
  const client = await openRepositoryClient(deps.config, { clock: deps.clock, cwd: deps.cwd });
  started.push({ stop: async () => client.close() });
  return createTaskRepository(client);
}
