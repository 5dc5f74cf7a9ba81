/**
 * The local side of the audit pipeline: the durable log (`audit-log`, when on), the audit
 * destinations (`audit-destinations`), and the durable queue that hands the destinations what the
 * log holds. Without the durable queue, ingest's in-process queue hands events straight to the
 * destinations (audit-parts.ts). The destinations stop within the shutdown budget
 * (destinations-at-shutdown.ts).
 */
import { resolve } from "node:path";
import { createDurableEventQueue } from "../../core/adapters/local/durable-queue/durable-event-queue.ts";
import {
  type DurableLogKeeper,
  startDurableLogKeeper,
} from "../../core/adapters/local/durable-queue/durable-log-keeper.ts";
import {
  createRecoveringEventQueue,
  type RecoveringEventQueue,
} from "../../core/adapters/local/durable-queue/recovering-event-queue.ts";
import type { Config } from "../../core/config/index.ts";
import {
  type AuditDestinations,
  type SelectedDestination,
  selectDestinations,
  startAuditDestinations,
} from "../../core/destinations/index.ts";
import { addRefusedSource, refusedCounts } from "../../core/monitoring/index.ts";
import type { Logger } from "../../core/ports.ts";
import type { ListenerProbe } from "../agent/listener-probes.ts";
import { SHUTDOWN_BUDGET_MS } from "../shutdown-budget.ts";
import type { AuditPartsDeps } from "./audit-parts.ts";
import type { AuditRoute } from "./audit-route.ts";
import { localDestinationAdapters } from "./destination-adapters.ts";
import { stopDestinationsWithinBudget } from "./destinations-at-shutdown.ts";
import { createDurableQueueLink, type DurableQueueLink } from "./durable-queue-link.ts";

export type LocalAuditQueueDeps = Pick<
  AuditPartsDeps,
  "clock" | "cwd" | "metrics" | "status" | "shutdown" | "parts"
>;

export interface LocalAuditQueue {
  destinations: AuditDestinations;
  /** The durable queue over the log, when `auditEvents.queue.durable` (and a destination is selected). */
  durableQueue: RecoveringEventQueue | undefined;
  /** The container health check's probe of whether the durable queue takes events. */
  healthProbes: ListenerProbe[];
}

export interface LocalAuditQueueOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly deps: LocalAuditQueueDeps;
  readonly route: Pick<AuditRoute, "durable" | "noDestination">;
}

/**
 * Starts the durable log (when on) and the destinations, and builds the durable queue
 * over the log: ingest puts events on it, and it stops as the part `audit-queue`
 * (audit-parts.ts).
 */
export async function startLocalAuditQueue(options: LocalAuditQueueOptions): Promise<LocalAuditQueue> {
  const { config, logger, deps, route } = options;
  const auditLogger = logger.child("audit");
  const selected = selectDestinations(
    config.auditEvents.destination,
    config.timeseriesdbConfig,
    localDestinationAdapters({ cwd: deps.cwd, logger: auditLogger }),
  );
  const keeper = route.durable ? await startLog({ config, logger, deps, selected }) : undefined;
  const link = createDurableQueueLink();
  const destinations = await startDestinations({ deps, auditLogger, route, selected, link });
  if (keeper === undefined) return { destinations, durableQueue: undefined, healthProbes: [] };
  const durableQueue = createDurableQueue({ config, logger, deps, keeper, destinations });
  link.join(durableQueue);
  return { destinations, durableQueue, healthProbes: [durableQueueProbe(durableQueue)] };
}

/** Never fails the start: a log that cannot be opened makes ingest answer 503 until it can. */
function startLog({
  config,
  logger,
  deps,
  selected,
}: {
  config: Config;
  logger: Logger;
  deps: LocalAuditQueueDeps;
  selected: SelectedDestination[];
}): Promise<DurableLogKeeper> {
  const queue = config.auditEvents.queue;
  return deps.parts.start("audit-log", () =>
    startDurableLogKeeper({
      directory: resolve(deps.cwd, queue.directory),
      destinations: selected.map(({ destination }) => destination.name),
      maxDiskBytes: queue.maxDiskBytes,
      clock: deps.clock,
      logger: logger.child("audit-queue"),
    }),
  );
}

async function startDestinations({
  deps,
  auditLogger,
  route,
  selected,
  link,
}: {
  deps: LocalAuditQueueDeps;
  auditLogger: Logger;
  route: Pick<AuditRoute, "durable" | "noDestination">;
  selected: SelectedDestination[];
  link: DurableQueueLink;
}): Promise<AuditDestinations> {
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
    addRefusedSource(deps.metrics, () => refusedCounts(destinations.stats(), "audit."));
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
function createDurableQueue({
  config,
  logger,
  deps,
  keeper,
  destinations,
}: {
  config: Config;
  logger: Logger;
  deps: LocalAuditQueueDeps;
  keeper: DurableLogKeeper;
  destinations: AuditDestinations;
}): RecoveringEventQueue {
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
