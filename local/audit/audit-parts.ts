/**
 * The audit pipeline of the local runtime, as parts started in this order and stopped in
 * reverse: durable log → destinations → queue → queue metrics → ingest HTTP listener
 * (the log and the destinations in local-audit-queue.ts). Each part is started with what the earlier
 * ones returned.
 *
 * With `auditEvents.queue.durable` (the default) an event gets its 202 only once it is synced to
 * the log under `auditEvents.queue.directory`; each destination reads the log from its own cursor
 * (so after a crash it first gets what it had not yet written) and moves the cursor as its
 * batches are written. An event goes only to the destinations selected when it was accepted:
 * with none selected no log is opened and events are counted and kept nowhere (the log's manifest
 * handles a selection that changes between runs, durable-log.ts). On shutdown the listener stops
 * taking events at the signal (listener-at-signal.ts), the queue hands every logged event to the
 * destinations, which flush until the shutdown budget's deadline for destinations
 * (local/shutdown-budget.ts: then they are abandoned and what they had not written stays in the
 * log), and the log persists the cursors last. A queue
 * directory that cannot be opened or written never fails the start or the process: the log is
 * opened when it can be (durable-log-keeper.ts), ingest answers 503 meanwhile
 * (recovering-event-queue.ts), and the status page and the container health check show it. Without
 * it, the in-process queue holds accepted events in memory (lost in a crash, flushed on SIGTERM).
 * The queue's counters are declared in the metrics registry as `steward_audit_events_total`, and
 * what the destinations refused as data as `steward_destination_refused_total`.
 *
 * On cloud stores (`cloud.enable`, cloud-ingest.ts) the agent's ingest is the ingest function's
 * twin: with `cloud.eventQueueUrl` an event gets its 202 once SQS has it, and neither the log nor
 * the destinations run here (the cloud's consumer function writes them); with
 * `cloud.rateLimitTable` the per-client counters are shared in DynamoDB.
 */
import { createTimeseriesClient } from "../../core/adapters/influx/create-timeseries-client.ts";
import { declareAuditEventMetrics } from "../../core/audit/index.ts";
import type { Config } from "../../core/config/index.ts";
import {
  type AuditDestinations,
  createAcceptedEventHandler,
  periodicWriterDestinationStats,
  startQueueMetricsWriter,
} from "../../core/destinations/index.ts";
import {
  addRefusedSource,
  type HttpRefusalReason,
  refusedCounts,
  type StatusBoard,
} from "../../core/monitoring/index.ts";
import type { Clock, EventQueueMetrics, Logger, MetricsRegistry } from "../../core/ports.ts";
import { incomingClientIp } from "../../functions/http/node-client-ip.ts";
import type { WebhookHandler } from "../../functions/qlik-cloud/webhook-handler.ts";
import type { ListenerProbe } from "../agent/listener-probes.ts";
import { startIngestListener } from "../http/ingest-listener.ts";
import { stopsAcceptingAtSignal } from "../http/listener-at-signal.ts";
import { listenerTls } from "../http/listener-certificate.ts";
import { stopPointWriterWithinBudget } from "../point-writers-at-shutdown.ts";
import type { ShutdownSchedule } from "../shutdown-budget.ts";
import type { PartStarter } from "../start-in-order.ts";
import { listening, trackPart } from "../status/tracked-part.ts";
import { type AuditRoute, auditRoute } from "./audit-route.ts";
import type { CloudIngest } from "./cloud-ingest.ts";
import { type LocalAuditQueue, startLocalAuditQueue } from "./local-audit-queue.ts";
import { createLocalIngest, type LocalIngest, type LocalIngestOptions } from "./local-ingest.ts";

export interface AuditPartsDeps {
  clock: Clock;
  /** Relative export and queue directories resolve from here. */
  cwd: string;
  /** Where the queue's counters are declared for the scrape endpoint. */
  metrics: MetricsRegistry;
  /** Where the status page reads the queue, the destinations and the listener (absent: nowhere). */
  status?: StatusBoard;
  /**
   * When, after the signal, the listener stops and destinations still writing are abandoned
   * (local/shutdown-budget.ts).
   */
  shutdown?: ShutdownSchedule;
  /** Counts each ingest request refused by the per-client rate limit (the scrape metric). */
  countRateLimited?: () => void;
  /** Counts what the listener refuses before answering (`steward_http_refused_total`). */
  countRefused?: (reason: HttpRefusalReason) => void;
  /** The Qlik Cloud tenants' webhook route, served on the ingest API's listener (qlikCloud.*). */
  qlikCloudWebhooks?: WebhookHandler | undefined;
  /** Starts each part of the pipeline and puts its stop on the process's stack. */
  parts: PartStarter;
}

export interface AuditParts {
  /** The container health check's extra probes: the durable queue adds whether it takes events. */
  healthProbes: ListenerProbe[];
}

export async function startAuditParts(
  config: Config,
  logger: Logger,
  deps: AuditPartsDeps,
): Promise<AuditParts> {
  const audit = config.auditEvents;
  if (!audit.enable) return { healthProbes: [] };
  const route = auditRoute(config);
  const cloudIngest = route.cloudStores ? await startCloudStores({ config, logger, deps, route }) : undefined;
  const local = route.toSqs ? undefined : await startLocalAuditQueue({ config, logger, deps, route });
  const ingest = await startIngest({ config, logger, deps, cloudIngest, local });
  const queueMetrics = audit.queue.queueMetrics.timeseriesdb;
  if (queueMetrics.enable) {
    await deps.parts.start("audit-queue-metrics", async () => {
      const auditLogger = logger.child("audit");
      const writer = startQueueMetricsWriter({
        config: queueMetrics,
        metrics: () => ingest.queue.metrics(),
        series: createTimeseriesClient(config.timeseriesdbConfig, { cwd: deps.cwd }),
        version: config.timeseriesdbConfig.version,
        clock: deps.clock,
        logger: auditLogger,
      });
      // A destination of its own, named as the agent's interval writers are.
      const destination = "audit-queue-metrics.timeseriesdb";
      const stats = () => periodicWriterDestinationStats(writer.stats());
      deps.status?.set("destinations", destination, stats);
      addRefusedSource(deps.metrics, () => refusedCounts({ [destination]: stats() }));
      return stopPointWriterWithinBudget(writer, {
        shutdown: deps.shutdown,
        part: "audit-queue-metrics",
        logger: auditLogger,
      });
    });
  }
  await startListener({ config, logger, deps, ingest });
  return { healthProbes: local?.healthProbes ?? [] };
}

async function startCloudStores({
  config,
  logger,
  deps,
  route,
}: {
  config: Config;
  logger: Logger;
  deps: AuditPartsDeps;
  route: AuditRoute;
}): Promise<CloudIngest> {
  const opened = await deps.parts.start("audit-cloud-stores", async () => {
    // Loaded only here: the AWS SDK stays out of every other local process.
    const cloudIngest = (await import("./cloud-ingest.ts")).openCloudIngest(config.cloud, route, {
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
 * The queue ingest puts accepted events on, as the part `audit-queue`: SQS's, the durable one,
 * or the in-process one in front of the destinations. Its counters are declared for the scrape
 * endpoint and shown on the status page with what each destination wrote.
 */
async function startIngest({
  config,
  logger,
  deps,
  cloudIngest,
  local,
}: {
  config: Config;
  logger: Logger;
  deps: AuditPartsDeps;
  cloudIngest: CloudIngest | undefined;
  local: LocalAuditQueue | undefined;
}): Promise<LocalIngest> {
  const { status } = deps;
  const rateLimitStore = cloudIngest?.rateLimitStore;
  const durableQueue = local?.durableQueue;
  const started = await deps.parts.start("audit-queue", async () => {
    if (durableQueue !== undefined)
      status?.set("audit", "queue", () => ({ ...durableQueue.availability(), ...durableQueue.usage() }));
    const ingest = createLocalIngest({
      settings: config.auditEvents,
      logger: logger.child("audit-ingest"),
      clock: deps.clock,
      ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
      ...(deps.countRateLimited === undefined ? {} : { countRateLimited: deps.countRateLimited }),
      ...queueOrHandler(cloudIngest, local),
    });
    const queue = ingest.queue;
    declareAuditEventMetrics(deps.metrics, () => queue.metrics());
    if (status !== undefined) showAuditStatus(status, queue, local?.destinations);
    return { ingest, stop: () => queue.stop() };
  });
  return started.ingest;
}

/**
 * Where accepted events go: to the cloud queue (opened exactly when the route sends events to
 * SQS), to the durable queue, or through the in-process queue to the destinations.
 */
function queueOrHandler(
  cloudIngest: CloudIngest | undefined,
  local: LocalAuditQueue | undefined,
): Pick<LocalIngestOptions, "queue" | "handler"> {
  if (cloudIngest?.queue !== undefined) return { queue: cloudIngest.queue };
  if (local?.durableQueue !== undefined) return { queue: local.durableQueue };
  return local === undefined ? {} : { handler: createAcceptedEventHandler(local.destinations) };
}

function startListener({
  config,
  logger,
  deps,
  ingest,
}: {
  config: Config;
  logger: Logger;
  deps: AuditPartsDeps;
  ingest: LocalIngest;
}): Promise<unknown> {
  const audit = config.auditEvents;
  const listener = stopsAcceptingAtSignal(
    {
      name: "audit-ingest-api",
      start: () =>
        startIngestListener({
          name: "Audit ingest API",
          handler: ingest.handler,
          clientIp: incomingClientIp(audit.trustedProxies),
          qlikCloudWebhooks: deps.qlikCloudWebhooks,
          host: audit.host,
          port: audit.port,
          allowedHosts: audit.allowedHosts,
          hostsSetting: "auditEvents.allowedHosts",
          maxConnections: audit.maxConnections,
          connectionsSetting: "auditEvents.maxConnections",
          countRefused: deps.countRefused,
          tls: listenerTls(config, "auditEvents", deps.cwd),
          clock: deps.clock,
          logger,
        }),
    },
    deps.shutdown,
  );
  const status = deps.status;
  return deps.parts.add(
    status === undefined ? listener : trackPart(listener, listening(status, "Audit ingest API")),
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
  // What a destination skips by design (json: events without objectData) is not "written".
  status.set("audit", "skipped", () =>
    Object.fromEntries(
      Object.entries(destinations.stats()).flatMap(([name, stats]) =>
        stats.skipped === undefined ? [] : [[name, stats.skipped]],
      ),
    ),
  );
}
