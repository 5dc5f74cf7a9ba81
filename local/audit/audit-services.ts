/**
 * The audit pipeline of the local runtime, as parts started in this order and stopped in
 * reverse: durable log → destination writers → queue → queue metrics → ingest HTTP listener.
 * Each part is started with what the earlier ones returned.
 *
 * With `auditEvents.queue.durable` (the default) an event gets its 202 only once it is synced to
 * the log under `auditEvents.queue.directory`; each destination reads the log from its own cursor
 * (so after a crash it first gets what it had not yet written) and moves the cursor as its
 * batches are written. An event goes only to the destinations selected when it was accepted:
 * with none selected no log is opened and events are counted and kept nowhere (the log's manifest
 * handles a selection that changes between runs, segment-log.ts). On shutdown the listener stops
 * taking events first, the queue hands every logged event to the writers, the writers flush
 * until the shutdown budget's deadline for destinations (local/shutdown-budget.ts: then they are
 * abandoned and what they had not written stays in the log), and the log persists the cursors
 * last. A queue
 * directory that cannot be opened or written never fails the start or the process: the log is
 * opened when it can be (durable-log-keeper.ts), ingest answers 503 meanwhile
 * (recovering-event-queue.ts), and the status page and the container health check show it. Without
 * it, the in-process queue holds accepted events in memory (lost in a crash, flushed on SIGTERM).
 * The queue's counters are declared in the metrics registry as `steward_audit_events_total`.
 *
 * On cloud stores (`cloud.enable`, cloud-ingest.ts) the agent's ingest is the ingest function's
 * twin: with `cloud.eventQueueUrl` an event gets its 202 once SQS has it, and neither the log nor
 * the destination writers run here (the cloud's consumer function writes them); with
 * `cloud.rateLimitTable` the per-client counters are shared in DynamoDB.
 */
import { resolve } from "node:path";
import { createTimeseriesWriter } from "../../core/adapters/influx/create-timeseries-writer.ts";
import { createDurableEventQueue } from "../../core/adapters/local/durable-event-queue.ts";
import {
  type DurableLogKeeper,
  startDurableLogKeeper,
} from "../../core/adapters/local/durable-log-keeper.ts";
import {
  createRecoveringEventQueue,
  type RecoveringEventQueue,
} from "../../core/adapters/local/recovering-event-queue.ts";
import { declareAuditEventMetrics } from "../../core/audit/audit-event-metrics.ts";
import type { Config } from "../../core/config/index.ts";
import { startQueueMetricsWriter } from "../../core/destinations/queue-metrics-writer.ts";
import {
  type SelectedDestination,
  selectDestinations,
  selectedDestinationTypes,
} from "../../core/destinations/select-destinations.ts";
import {
  type AuditDestinations,
  createAcceptedEventHandler,
  startAuditDestinations,
} from "../../core/destinations/start-audit-destinations.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import type { Clock, EventQueueMetrics, Logger, MetricsRegistry } from "../../core/ports.ts";
import type { ListenerProbe } from "../agent/listener-probes.ts";
import { startIngestListener } from "../http/ingest-listener.ts";
import { SHUTDOWN_BUDGET_MS, type ShutdownSchedule } from "../shutdown-budget.ts";
import type { PartStarter } from "../start-in-order.ts";
import { listening, trackService } from "../status/tracked-service.ts";
import type { CloudIngest } from "./cloud-ingest.ts";
import { localDestinationAdapters } from "./destination-adapters.ts";
import { stopDestinationsWithinBudget } from "./destinations-at-shutdown.ts";
import { createDurableQueueLink, type DurableQueueLink } from "./durable-queue-link.ts";
import { createLocalIngest, type LocalIngest, type LocalIngestOptions } from "./local-ingest.ts";

export interface AuditServicesDeps {
  clock: Clock;
  /** Relative export and queue directories resolve from here. */
  cwd: string;
  /** Where the queue's counters are declared for the scrape endpoint. */
  metrics: MetricsRegistry;
  /** Where the status page reads the queue, the destinations and the listener (absent: nowhere). */
  status?: StatusBoard;
  /** When, after the signal, destinations still writing are abandoned (local/shutdown-budget.ts). */
  shutdown?: ShutdownSchedule;
  /** Counts each ingest request refused by the per-client rate limit (the scrape metric). */
  countRateLimited?: () => void;
  /** Starts each part of the pipeline and puts its stop on the process's stack. */
  parts: PartStarter;
}

export interface AuditServices {
  /** The container health check's extra probes: the durable queue adds whether it takes events. */
  healthProbes: ListenerProbe[];
}

/** What the config chooses, once: events to SQS (no local log, no local writers), or the local queue. */
interface AuditRoute {
  toSqs: boolean;
  /** The SQS queue or the shared rate-limit table in the cloud (cloud-ingest.ts). */
  cloudStores: boolean;
  /** The durable log under `auditEvents.queue.directory`. */
  durable: boolean;
  /**
   * With no destination selected, accepted events are counted and kept nowhere: no log is opened
   * (nothing to write to disk, no directory needed), and a log an earlier run left is left as it
   * is until a destination is selected again.
   */
  noDestination: boolean;
}

function auditRoute(config: Config): AuditRoute {
  const { auditEvents: audit, cloud } = config;
  const toSqs = cloud.enable && cloud.eventQueueUrl !== "";
  const noDestination = selectedDestinationTypes(audit.destination).length === 0;
  return {
    toSqs,
    cloudStores: toSqs || (cloud.enable && cloud.rateLimitTable !== ""),
    durable: audit.queue.durable && !toSqs && !noDestination,
    noDestination,
  };
}

export async function startAuditServices(
  config: Config,
  logger: Logger,
  deps: AuditServicesDeps,
): Promise<AuditServices> {
  const audit = config.auditEvents;
  if (!audit.enable) return { healthProbes: [] };
  const route = auditRoute(config);
  const cloudIngest = route.cloudStores ? await startCloudStores(config, logger, deps, route) : undefined;
  const rateLimitStore = cloudIngest?.rateLimitStore;
  const common: IngestCommon = {
    settings: audit,
    logger: logger.child("audit-ingest"),
    clock: deps.clock,
    ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
    ...(deps.countRateLimited === undefined ? {} : { countRateLimited: deps.countRateLimited }),
  };
  // cloud-ingest.ts opens the cloud queue exactly when events go to SQS.
  const cloudQueue = cloudIngest?.queue;
  const { ingest, healthProbes } =
    cloudQueue === undefined
      ? await startLocalQueue(config, logger, deps, route, common)
      : {
          ingest: await startIngest(deps, undefined, () =>
            createLocalIngest({ ...common, queue: cloudQueue }),
          ),
          healthProbes: [],
        };
  const queueMetrics = audit.queue.queueMetrics.timeseriesdb;
  if (queueMetrics.enable) {
    await deps.parts.start("audit-queue-metrics", async () =>
      startQueueMetricsWriter({
        config: queueMetrics,
        metrics: () => ingest.queue.metrics(),
        series: createTimeseriesWriter(config.timeseriesdbConfig),
        version: config.timeseriesdbConfig.version,
        clock: deps.clock,
        logger: logger.child("audit"),
      }),
    );
  }
  await startListener(config, logger, deps, ingest);
  return { healthProbes };
}

/** What ingest is built with whatever the queue. */
type IngestCommon = Omit<LocalIngestOptions, "queue" | "handler">;

async function startCloudStores(
  config: Config,
  logger: Logger,
  deps: AuditServicesDeps,
  route: AuditRoute,
): Promise<CloudIngest> {
  const opened = await deps.parts.start("audit-cloud-stores", async () => {
    // Loaded only here: the AWS SDK stays out of every other local process.
    const cloudIngest = (await import("./cloud-ingest.ts")).openCloudIngest(config.cloud, {
      clock: deps.clock,
      logger: logger.child("audit-queue"),
    });
    if (route.toSqs) {
      logger.child("audit").info("Audit events go to the cloud queue; its consumer writes the destinations", {
        queueUrl: config.cloud.eventQueueUrl,
      });
    }
    return { cloudIngest, stop: async () => cloudIngest.close() };
  });
  return opened.cloudIngest;
}

/**
 * The local queue: the durable log (when on), the destination writers, and the queue in front
 * of them: the durable one over the log, or the in-process one.
 */
async function startLocalQueue(
  config: Config,
  logger: Logger,
  deps: AuditServicesDeps,
  route: AuditRoute,
  common: IngestCommon,
): Promise<{ ingest: LocalIngest; healthProbes: ListenerProbe[] }> {
  const auditLogger = logger.child("audit");
  const selected = selectDestinations(
    config.auditEvents.destination,
    config.timeseriesdbConfig,
    localDestinationAdapters({ cwd: deps.cwd, clock: deps.clock, logger: auditLogger }),
  );
  const keeper = route.durable ? await startLog(config, logger, deps, selected) : undefined;
  const link = createDurableQueueLink();
  const destinations = await startDestinations(deps, auditLogger, route, selected, link);
  if (keeper === undefined) {
    const handler = createAcceptedEventHandler(destinations);
    const ingest = await startIngest(deps, destinations, () => createLocalIngest({ ...common, handler }));
    return { ingest, healthProbes: [] };
  }
  const durableQueue = createDurableQueue(config, logger, deps, keeper, destinations);
  link.join(durableQueue);
  const ingest = await startIngest(deps, destinations, () => {
    deps.status?.set("audit", "queue", () => ({ ...durableQueue.availability(), ...durableQueue.usage() }));
    return createLocalIngest({ ...common, queue: durableQueue });
  });
  return { ingest, healthProbes: [durableQueueProbe(durableQueue)] };
}

/** Never fails the start: a log that cannot be opened makes ingest answer 503 until it can. */
function startLog(
  config: Config,
  logger: Logger,
  deps: AuditServicesDeps,
  selected: SelectedDestination[],
): Promise<DurableLogKeeper> {
  const queue = config.auditEvents.queue;
  return deps.parts.start("audit-log", () =>
    startDurableLogKeeper({
      directory: resolve(deps.cwd, queue.directory),
      destinations: selected.map(({ writer }) => writer.name),
      maxDiskBytes: queue.maxDiskBytes,
      clock: deps.clock,
      logger: logger.child("audit-queue"),
    }),
  );
}

async function startDestinations(
  deps: AuditServicesDeps,
  auditLogger: Logger,
  route: AuditRoute,
  selected: SelectedDestination[],
  link: DurableQueueLink,
): Promise<AuditDestinations> {
  const { status } = deps;
  const started = await deps.parts.start("audit-destinations", async () => {
    if (route.noDestination)
      auditLogger.info("No audit destination is selected: accepted events are counted and kept nowhere");
    const destinations = await startAuditDestinations({
      destinations: selected,
      clock: deps.clock,
      logger: auditLogger,
      // The shutdown budget's deadline for destinations rules (stopDestinationsWithinBudget):
      // stop() comes after the signal, so its own timeout never runs out first.
      stopTimeoutMs: SHUTDOWN_BUDGET_MS.destinations,
      ...(route.durable ? { onDone: link.written } : {}),
      ...(status === undefined
        ? {}
        : { onWriteError: (name: string, error: unknown) => status.noteError(`audit.${name}`, error) }),
    });
    for (const name of destinations.names)
      status?.set("destinations", `audit.${name}`, () => destinations.stats()[name]);
    const withinBudget = stopDestinationsWithinBudget(destinations, {
      shutdown: deps.shutdown,
      durable: route.durable,
      backlog: link.backlog,
      logger: auditLogger,
    });
    return { destinations, stop: () => withinBudget.stop() };
  });
  return started.destinations;
}

/** The durable queue over the log (once it opens), handing each destination its events. */
function createDurableQueue(
  config: Config,
  logger: Logger,
  deps: AuditServicesDeps,
  keeper: DurableLogKeeper,
  destinations: AuditDestinations,
): RecoveringEventQueue {
  const queueLogger = logger.child("audit-queue");
  const { clock } = deps;
  return createRecoveringEventQueue({
    keeper,
    directory: resolve(deps.cwd, config.auditEvents.queue.directory),
    createQueue: (log) =>
      createDurableEventQueue(config.auditEvents.queue, {
        log,
        destinations: destinations.names,
        deliver: (name, event) => destinations.deliver(name, event),
        logger: queueLogger,
        clock,
      }),
    logger: queueLogger,
    clock,
  });
}

function durableQueueProbe(queue: RecoveringEventQueue): ListenerProbe {
  return {
    name: "auditQueue",
    check: async () => {
      const availability = queue.availability();
      return availability.state === "unavailable"
        ? `audit event queue (${availability.directory}) refuses events: ${availability.reason}`
        : undefined;
    },
  };
}

/**
 * The queue ingest puts accepted events on, as the part `audit-queue`: its counters are declared
 * for the scrape endpoint and shown on the status page with what each destination wrote.
 */
async function startIngest(
  deps: AuditServicesDeps,
  destinations: AuditDestinations | undefined,
  create: () => LocalIngest,
): Promise<LocalIngest> {
  const ingest = await deps.parts.start("audit-queue", async () => {
    const created = create();
    const queue = created.queue;
    declareAuditEventMetrics(deps.metrics, () => queue.metrics());
    if (deps.status !== undefined) showAuditStatus(deps.status, queue, destinations);
    return { created, stop: () => queue.stop() };
  });
  return ingest.created;
}

function startListener(
  config: Config,
  logger: Logger,
  deps: AuditServicesDeps,
  ingest: LocalIngest,
): Promise<unknown> {
  const audit = config.auditEvents;
  const listener = {
    name: "audit-ingest-api",
    start: () =>
      startIngestListener({
        name: "Audit ingest API",
        handler: ingest.handler,
        host: audit.host,
        port: audit.port,
        logger,
      }),
  };
  const status = deps.status;
  return deps.parts.add(
    status === undefined ? listener : trackService(listener, listening(status, "Audit ingest API")),
  );
}

/** The queue's counts and each destination's written events on the status page. */
function showAuditStatus(
  status: StatusBoard,
  queue: { metrics(): EventQueueMetrics },
  destinations: AuditDestinations | undefined,
): void {
  status.countEvents(() => queue.metrics().received);
  status.set("audit", "events", () => {
    const m = queue.metrics();
    return {
      received: m.received,
      accepted: m.queued,
      processed: m.processed,
      failed: m.failed,
      droppedRateLimit: m.droppedRateLimit,
      droppedQueueFull: m.droppedQueueFull,
      droppedSize: m.droppedSize,
      waiting: m.waiting,
    };
  });
  if (destinations === undefined) return; // written by the cloud's consumer function
  status.set("audit", "written", () =>
    Object.fromEntries(Object.entries(destinations.stats()).map(([name, stats]) => [name, stats.written])),
  );
}
