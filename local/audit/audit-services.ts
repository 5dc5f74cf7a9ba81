/**
 * The audit pipeline of the local runtime, as services started in this order and stopped in
 * reverse: destination writers → in-process queue → queue metrics → ingest HTTP listener. So on
 * shutdown the listener stops taking events first, the queue then hands every accepted event to
 * the writers, and the writers flush last: nothing that got a 202 is lost. The queue's counters are
 * declared in the metrics registry as `steward_audit_events_total` for the scrape endpoint.
 */
import { createTimeseriesWriter } from "../../core/adapters/influx/create-timeseries-writer.ts";
import { declareAuditEventMetrics } from "../../core/audit/audit-event-metrics.ts";
import type { Config } from "../../core/config/index.ts";
import { startQueueMetricsWriter } from "../../core/destinations/queue-metrics-writer.ts";
import { selectDestinations } from "../../core/destinations/select-destinations.ts";
import {
  type AuditDestinations,
  createAcceptedEventHandler,
  startAuditDestinations,
} from "../../core/destinations/start-audit-destinations.ts";
import type { Clock, Logger, MetricsRegistry } from "../../core/ports.ts";
import { startIngestListener } from "../http/ingest-listener.ts";
import type { NamedService } from "../start-in-order.ts";
import { localDestinationAdapters } from "./destination-adapters.ts";
import { createLocalIngest, type LocalIngest } from "./local-ingest.ts";

export interface AuditServicesDeps {
  clock: Clock;
  /** Relative export directories resolve from here. */
  cwd: string;
  /** Where the queue's counters are declared for the scrape endpoint. */
  metrics: MetricsRegistry;
}

export function auditServices(config: Config, logger: Logger, deps: AuditServicesDeps): NamedService[] {
  const { clock, cwd } = deps;
  const audit = config.auditEvents;
  if (!audit.enable) return [];
  const auditLogger = logger.child("audit");
  let destinations: AuditDestinations | undefined;
  let ingest: LocalIngest | undefined;
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} must start first`);
    return value;
  };

  const services: NamedService[] = [
    {
      name: "audit-destinations",
      start: async () => {
        destinations = await startAuditDestinations({
          destinations: selectDestinations(
            audit.destination,
            config.timeseriesdbConfig,
            localDestinationAdapters({ cwd, clock, logger: auditLogger }),
          ),
          clock,
          logger: auditLogger,
        });
        return destinations;
      },
    },
    {
      name: "audit-queue",
      start: async () => {
        ingest = createLocalIngest({
          settings: audit,
          handler: createAcceptedEventHandler(started(destinations, "audit-destinations")),
          logger: logger.child("audit-ingest"),
          clock,
        });
        const queue = ingest.queue;
        declareAuditEventMetrics(deps.metrics, () => queue.metrics());
        return queue;
      },
    },
  ];
  const queueMetrics = audit.queue.queueMetrics.timeseriesdb;
  if (queueMetrics.enable) {
    services.push({
      name: "audit-queue-metrics",
      start: async () => {
        const queue = started(ingest, "audit-queue").queue;
        return startQueueMetricsWriter({
          config: queueMetrics,
          metrics: () => queue.metrics(),
          series: createTimeseriesWriter(config.timeseriesdbConfig),
          clock,
          logger: auditLogger,
        });
      },
    });
  }
  services.push({
    name: "audit-ingest-api",
    start: () =>
      startIngestListener({
        name: "Audit ingest API",
        handler: started(ingest, "audit-queue").handler,
        host: audit.host,
        port: audit.port,
        logger,
      }),
  });
  return services;
}
