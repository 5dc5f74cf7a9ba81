/**
 * The validated audit event as it travels from the ingest edge, through the queue (in-process or
 * SQS), to the destinations. The ingest API's valibot envelope schema produces `AuditEnvelope`;
 * members it does not define are dropped at validation.
 */

export interface AuditEventSource {
  kind?: "qlik-sense-extension";
  name?: "audit-qs";
  version?: string;
}

export interface AuditEnvelope {
  schemaVersion: number;
  eventId: string;
  /** RFC 3339 date-time with a time zone, exactly as the client sent it. */
  timestamp: string;
  type: string;
  payload: Record<string, unknown>;
  correlationId?: string;
  source?: AuditEventSource;
}

/** An envelope the ingest API answered 202 for. */
export interface AcceptedEvent {
  envelope: AuditEnvelope;
  /** ISO 8601 time at which Steward received the request. */
  receivedAt: string;
  /** Client IP as the ingest edge saw it. */
  clientIp: string;
}
