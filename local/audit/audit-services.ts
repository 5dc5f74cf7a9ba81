/**
 * The audit pipeline of the local runtime, as services started in this order and stopped in
 * reverse: durable log → destination writers → queue → queue metrics → ingest HTTP listener.
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
 * The queue's counters are declared in the metrics registry as `steward_audit_events_total`, and
 * what the destinations refused as data as `steward_destination_refused_total`.
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
import { periodicWriterDestinationStats } from "../../core/destinations/periodic-writer.ts";
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
import { addRefusedSource, refusedCounts } from "../../core/monitoring/refused-metric.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import type { Clock, EventQueueMetrics, Logger, MetricsRegistry } from "../../core/ports.ts";
import type { ListenerProbe } from "../agent/listener-probes.ts";
import { startIngestListener } from "../http/ingest-listener.ts";
import { stopPointWriterWithinBudget } from "../point-writers-at-shutdown.ts";
import { SHUTDOWN_BUDGET_MS, type ShutdownSchedule } from "../shutdown-budget.ts";
import type { NamedService } from "../start-in-order.ts";
import { trackService } from "../status/tracked-service.ts";
import type { CloudIngest } from "./cloud-ingest.ts";
import { localDestinationAdapters } from "./destination-adapters.ts";
import { stopDestinationsWithinBudget } from "./destinations-at-shutdown.ts";
import { createLocalIngest, type LocalIngest } from "./local-ingest.ts";

export interface AuditServicesDeps {
  clock: Clock;
  /** Relative export and queue directories resolve from here. */
  cwd: string;
  /** Where the queue's counters are declared for the scrape endpoint. */
  metrics: MetricsRegistry;
  /** Where the status page reads the queue, the destinations and the listener (absent: nowhere). */
  status?: StatusBoard;
  /** The container health check's extra probes: the durable queue adds whether it takes events. */
  healthProbes?: ListenerProbe[];
  /** When, after the signal, destinations still writing are abandoned (local/shutdown-budget.ts). */
  shutdown?: ShutdownSchedule;
  /** Counts each ingest request refused by the per-client rate limit (the scrape metric). */
  countRateLimited?: () => void;
}

export function auditServices(config: Config, logger: Logger, deps: AuditServicesDeps): NamedService[] {
  const { clock, cwd, status } = deps;
  const audit = config.auditEvents;
  if (!audit.enable) return [];
  const auditLogger = logger.child("audit");
  const cloud = config.cloud;
  // Chosen once: events to SQS (no local log, no local writers), or the local queue.
  const toSqs = cloud.enable && cloud.eventQueueUrl !== "";
  const cloudStores = toSqs || (cloud.enable && cloud.rateLimitTable !== "");
  // With no destination selected, accepted events are counted and kept nowhere: no log is opened
  // (nothing to write to disk, no directory needed), and a log an earlier run left is left as it
  // is until a destination is selected again.
  const noDestination = selectedDestinationTypes(audit.destination).length === 0;
  const durable = audit.queue.durable && !toSqs && !noDestination;
  let cloudIngest: CloudIngest | undefined;
  let selected: SelectedDestination[] | undefined;
  const queueDirectory = resolve(cwd, audit.queue.directory);
  let keeper: DurableLogKeeper | undefined;
  let durableQueue: RecoveringEventQueue | undefined;
  let destinations: AuditDestinations | undefined;
  let ingest: LocalIngest | undefined;
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} must start first`);
    return value;
  };
  const selectOnce = () =>
    (selected ??= selectDestinations(
      audit.destination,
      config.timeseriesdbConfig,
      localDestinationAdapters({ cwd, logger: auditLogger }),
    ));

  const services: NamedService[] = [];
  if (cloudStores) {
    services.push({
      name: "audit-cloud-stores",
      start: async () => {
        // Loaded only here: the AWS SDK stays out of every other local process.
        const opened = (await import("./cloud-ingest.ts")).openCloudIngest(cloud, {
          clock,
          logger: logger.child("audit-queue"),
        });
        cloudIngest = opened;
        if (toSqs) {
          auditLogger.info("Audit events go to the cloud queue; its consumer writes the destinations", {
            queueUrl: cloud.eventQueueUrl,
          });
        }
        return { stop: async () => opened.close() };
      },
    });
  }
  if (durable) {
    services.push({
      name: "audit-log",
      // Never fails the start: a log that cannot be opened makes ingest answer 503 until it can.
      start: async () => {
        keeper = await startDurableLogKeeper({
          directory: queueDirectory,
          destinations: selectOnce().map(({ writer }) => writer.name),
          maxDiskBytes: audit.queue.maxDiskBytes,
          clock,
          logger: logger.child("audit-queue"),
        });
        return keeper;
      },
    });
    deps.healthProbes?.push({
      name: "auditQueue",
      check: async () => {
        const availability = durableQueue?.availability();
        return availability?.state === "unavailable"
          ? `audit event queue (${availability.directory}) refuses events: ${availability.reason}`
          : undefined;
      },
    });
  }
  if (!toSqs) {
    services.push({
      name: "audit-destinations",
      start: async () => {
        if (noDestination)
          auditLogger.info("No audit destination is selected: accepted events are counted and kept nowhere");
        destinations = await startAuditDestinations({
          destinations: selectOnce(),
          clock,
          logger: auditLogger,
          // The shutdown budget's deadline for destinations rules (stopDestinationsWithinBudget):
          // stop() comes after the signal, so its own timeout never runs out first.
          stopTimeoutMs: SHUTDOWN_BUDGET_MS.destinations,
          ...(durable ? { onDone: (name: string, events) => durableQueue?.written(name, events) } : {}),
          ...(status === undefined
            ? {}
            : { onWriteError: (name: string, error: unknown) => status.noteError(`audit.${name}`, error) }),
        });
        const running = destinations;
        for (const name of running.names)
          status?.set("destinations", `audit.${name}`, () => running.stats()[name]);
        addRefusedSource(deps.metrics, () => refusedCounts(running.stats(), "audit."));
        return stopDestinationsWithinBudget(running, {
          shutdown: deps.shutdown,
          durable,
          backlog: () => durableQueue?.usage()?.destinations,
          logger: auditLogger,
        });
      },
    });
  }
  services.push({
    name: "audit-queue",
    start: async () => {
      const rateLimitStore = cloudIngest?.rateLimitStore;
      const common = {
        settings: audit,
        logger: logger.child("audit-ingest"),
        clock,
        ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
        ...(deps.countRateLimited === undefined ? {} : { countRateLimited: deps.countRateLimited }),
      };
      if (toSqs) {
        ingest = createLocalIngest({ ...common, queue: started(cloudIngest?.queue, "audit-cloud-stores") });
      } else {
        const running = started(destinations, "audit-destinations");
        if (durable) {
          const queueLogger = logger.child("audit-queue");
          durableQueue = createRecoveringEventQueue({
            keeper: started(keeper, "audit-log"),
            directory: queueDirectory,
            createQueue: (log) =>
              createDurableEventQueue(audit.queue, {
                log,
                destinations: running.names,
                deliver: (name, event) => running.deliver(name, event),
                logger: queueLogger,
                clock,
              }),
            logger: queueLogger,
            clock,
          });
          const recovering = durableQueue;
          status?.set("audit", "queue", () => ({ ...recovering.availability(), ...recovering.usage() }));
        }
        ingest = createLocalIngest({
          ...common,
          ...(durableQueue === undefined
            ? { handler: createAcceptedEventHandler(running) }
            : { queue: durableQueue }),
        });
      }
      const queue = ingest.queue;
      declareAuditEventMetrics(deps.metrics, () => queue.metrics());
      if (status !== undefined) showAuditStatus(status, queue, destinations);
      return queue;
    },
  });
  const queueMetrics = audit.queue.queueMetrics.timeseriesdb;
  if (queueMetrics.enable) {
    services.push({
      name: "audit-queue-metrics",
      start: async () => {
        const queue = started(ingest, "audit-queue").queue;
        const writer = startQueueMetricsWriter({
          config: queueMetrics,
          metrics: () => queue.metrics(),
          series: createTimeseriesWriter(config.timeseriesdbConfig),
          version: config.timeseriesdbConfig.version,
          clock,
          logger: auditLogger,
        });
        // A destination of its own, named as the agent's interval writers are.
        const destination = "audit-queue-metrics.timeseriesdb";
        const stats = () => periodicWriterDestinationStats(writer.stats());
        status?.set("destinations", destination, stats);
        addRefusedSource(deps.metrics, () => refusedCounts({ [destination]: stats() }));
        return stopPointWriterWithinBudget(writer, {
          shutdown: deps.shutdown,
          part: "audit-queue-metrics",
          logger: auditLogger,
        });
      },
    });
  }
  const listener: NamedService = {
    name: "audit-ingest-api",
    start: () =>
      startIngestListener({
        name: "Audit ingest API",
        handler: started(ingest, "audit-queue").handler,
        host: audit.host,
        port: audit.port,
        logger,
      }),
  };
  services.push(
    status === undefined
      ? listener
      : trackService(listener, {
          board: status,
          section: "listeners",
          label: "Audit ingest API",
          runningState: "listening",
        }),
  );
  return services;
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
