/**
 * Where the local process sends accepted audit events, decided once from the config: to the
 * cloud's SQS queue (no local log, no local destinations), or through the local queue to the
 * destinations selected here; and which cloud stores it opens. Every piece of the audit pipeline
 * reads these answers instead of asking the config again, so that, for example, the SQS client is
 * opened exactly when events go to SQS.
 */
import type { Config } from "../../core/config/index.ts";
import { selectedDestinationTypes } from "../../core/destinations/index.ts";

export interface AuditRoute {
  /** Accepted events go to the SQS queue `cloud.eventQueueUrl`; its consumer writes them. */
  toSqs: boolean;
  /** The per-client rate-limit counters live in the DynamoDB table `cloud.rateLimitTable`. */
  sharedRateLimit: boolean;
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

export function auditRoute(config: Pick<Config, "auditEvents" | "cloud">): AuditRoute {
  const { auditEvents: audit, cloud } = config;
  const toSqs = cloud.enable && cloud.eventQueueUrl !== "";
  const sharedRateLimit = cloud.enable && cloud.rateLimitTable !== "";
  const noDestination = selectedDestinationTypes(audit.destination).length === 0;
  return {
    toSqs,
    sharedRateLimit,
    cloudStores: toSqs || sharedRateLimit,
    durable: audit.queue.durable && !toSqs && !noDestination,
    noDestination,
  };
}
