/**
 * An accepted event as JSON without encoding it again: the request's own text already is the
 * envelope's JSON whenever validation dropped nothing from it (the envelope schema drops members
 * the envelope does not define, at the top level and in `source`, and changes nothing else). Queues that
 * store events as JSON (the durable log, SQS) take that text instead of `JSON.stringify`, which
 * costs as much as parsing the body did. JSON.parse of the text gives the same values as the
 * validated envelope, so what a reader gets back is the same either way.
 */
import type { AcceptedEvent, AuditEnvelope } from "./accepted-event.ts";

/** `bodyText` when it encodes exactly `envelope` (parsed as `body`), else undefined. */
export function envelopeJsonOf(
  body: unknown,
  bodyText: string | undefined,
  envelope: AuditEnvelope,
): string | undefined {
  if (bodyText === undefined || !isRecord(body)) return undefined;
  // A "__proto__" member parses as an own member of the text but not of the copy validation made.
  if (bodyText.includes('"__proto__"')) return undefined;
  if (memberCount(body) !== memberCount(envelope)) return undefined;
  if (envelope.source !== undefined && memberCount(body.source) !== memberCount(envelope.source))
    return undefined;
  return bodyText;
}

/** The event as JSON, the envelope's text reused when given; the same value as `JSON.stringify(event)`. */
export function acceptedEventJson(event: AcceptedEvent, envelopeJson: string | undefined): string {
  if (envelopeJson === undefined) return JSON.stringify(event);
  return `{"envelope":${envelopeJson},"receivedAt":${JSON.stringify(event.receivedAt)},"clientIp":${JSON.stringify(event.clientIp)}}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function memberCount(value: unknown): number {
  return isRecord(value) ? Object.keys(value).length : -1;
}
