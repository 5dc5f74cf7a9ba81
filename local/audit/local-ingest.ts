/**
 * The ingest API as the local runtime runs it (served by local/http/ingest-listener.ts): accepted
 * events go to the given queue (the durable log, audit-parts.ts) or, without one, to the
 * bounded in-process queue, whose handler (the destinations fan-out) is injected; rate-limit
 * counters live in memory unless a store is given (DynamoDB on cloud stores). Start-up warnings (no token, inconsistent
 * limiters) are logged here. The queue is stoppable: stop it after the HTTP listener so that
 * every event that got a 202 is handled before the process exits.
 */

import {
  createInProcessEventQueue,
  type InProcessEventQueueOptions,
} from "../../core/adapters/local/in-process-event-queue.ts";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import { swaggerUiAssets } from "../../core/adapters/swagger-ui-assets.ts";
import { rateLimitConsistencyWarnings } from "../../core/audit/index.ts";
import type {
  AcceptedEventHandler,
  Clock,
  EventQueue,
  EventQueueMetrics,
  Logger,
  RateLimitStore,
  Stoppable,
} from "../../core/ports.ts";
import {
  type AuditIngestSettings,
  createIngestHandler,
  type IngestHandler,
} from "../../functions/audit-ingest/ingest-handler.ts";

export interface LocalIngestOptions {
  /** `config.auditEvents`. */
  settings: AuditIngestSettings & { queue: InProcessEventQueueOptions };
  /** Processes each accepted event (the destinations) when no `queue` is given. */
  handler?: AcceptedEventHandler;
  /** The queue to use instead of an in-process one (the durable queue). */
  queue?: LocalEventQueue;
  /** Where the per-client rate-limit counters live (default: this process's memory). */
  rateLimitStore?: RateLimitStore;
  /** Counts each request refused by the per-client rate limit (the scrape metric). */
  countRateLimited?: () => void;
  logger: Logger;
  clock: Clock;
}

/** What the local runtime needs of its event queue: one that stops, counts and can drain. */
export interface LocalEventQueue extends EventQueue, Stoppable {
  metrics(): EventQueueMetrics;
  drain(): Promise<void>;
}

export interface LocalIngest {
  handler: IngestHandler;
  queue: LocalEventQueue;
}

function inProcessQueue(options: LocalIngestOptions): LocalEventQueue {
  if (options.handler === undefined) throw new Error("createLocalIngest needs a queue or a handler");
  return createInProcessEventQueue(options.settings.queue, {
    handler: options.handler,
    logger: options.logger.child("audit-queue"),
    clock: options.clock,
  });
}

export function createLocalIngest(options: LocalIngestOptions): LocalIngest {
  const { settings, logger, clock } = options;
  for (const warning of rateLimitConsistencyWarnings(settings.rateLimit, settings.queue.rateLimit)) {
    logger.warn(warning);
  }
  if (settings.apiToken === "") {
    logger.warn(
      "No auditEvents.apiToken configured: any client that can reach the ingest API may post events",
    );
  }
  const queue = options.queue ?? inProcessQueue(options);
  const handler = createIngestHandler({
    settings,
    queue,
    rateLimitStore: options.rateLimitStore ?? createMemoryRateLimitStore(),
    logger,
    clock,
    explorerAssets: swaggerUiAssets(),
    ...(options.countRateLimited === undefined ? {} : { countRateLimited: options.countRateLimited }),
  });
  return { handler, queue };
}
