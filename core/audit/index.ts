/**
 * The audit module's only door: code outside core/audit/ imports this file and nothing else of
 * the module, so its files can be rearranged without touching their users. It gives the ingest
 * use case (an audit event's envelope, content and client version checked, then queued) and the
 * schemas the ingest API's documentation is made from, the accepted event as it travels to the
 * destinations and the facts and table row they store of it, the queue's errors, the connection
 * test, the audit pipeline's scrape metrics and the start-up checks and logs of ingest.
 */
export type { AcceptedEvent } from "./accepted-event.ts";
export { declareAuditEventMetrics } from "./audit-event-metrics.ts";
export { type AuditFacts, carriesObjectData, extractAuditFacts } from "./audit-facts.ts";
export { AUDIT_COLUMNS, type AuditColumnKind, type AuditRow, isoUtcDate, toAuditRow } from "./audit-row.ts";
export { normaliseVersionHeader } from "./client-version.ts";
export { testConnection } from "./connection-test.ts";
export { acceptedEventJson } from "./envelope-json.ts";
export { envelopeSchema } from "./envelope-schema.ts";
export { KNOWN_EVENT_TYPES } from "./event-types.ts";
export { createIngestEvent, type IngestOutcome } from "./ingest-event.ts";
export { createMissingVersionLog } from "./missing-version-log.ts";
export { payloadSchemas } from "./payload-schemas.ts";
export { EventQueueError, EventQueueUnavailableError } from "./queue-errors.ts";
export { rateLimitConsistencyWarnings } from "./rate-limit-consistency.ts";
export { type StaticTag, staticTagsObject } from "./static-tags.ts";
