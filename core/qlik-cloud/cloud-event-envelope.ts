/**
 * One reader for the three envelopes a Qlik Cloud event comes in, and for the audits API's items,
 * which use the legacy names:
 * - CloudEvents 1.0: `id`, `type`, `time`, `specversion` ("1.0", also "1.0.2"), `tenantid`,
 *   `userid`, `ownerid`, `spaceid`, `toplevelresourceid` at the top, lower-case;
 * - legacy (CloudEvents 0.1, removed from webhooks on 2026-10-06): `eventId`, `eventType`,
 *   `eventTime`, `cloudEventsVersion` and `extensions.{tenantId, userId, ownerId, spaceId,
 *   topLevelResourceId}`; audit items carry `tenantId` and `userId` at the top instead;
 * - hybrid (sent from 2025-11-03 until the legacy names went): both sets at once.
 * Each attribute is read by presence, the CloudEvents name first: Qlik never published the hybrid
 * layout, and `data` is the same in all of them. The body arrives from the network (after its
 * signature was checked, or from an API), so only strings of a sane length are taken: anything
 * else reads as absent, and a missing event type makes the body no event at all.
 */

export type EnvelopeFormat = "cloudevents" | "legacy" | "hybrid";

export interface CloudEventEnvelope {
  readonly format: EnvelopeFormat;
  readonly type: string;
  readonly id?: string;
  readonly time?: string;
  readonly tenantId?: string;
  readonly userId?: string;
  readonly ownerId?: string;
  readonly spaceId?: string;
  readonly topLevelResourceId?: string;
  readonly data: unknown;
}

export type EnvelopeReading =
  | { readonly ok: true; readonly envelope: CloudEventEnvelope }
  | { readonly ok: false; readonly problem: string };

/** Longest attribute taken: ids, types and times are far shorter in every example Qlik gives. */
const MAX_ATTRIBUTE_LENGTH = 256;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= MAX_ATTRIBUTE_LENGTH
    ? value
    : undefined;
}

/** The first of the candidates that is a usable string. */
function first(...candidates: unknown[]): string | undefined {
  for (const candidate of candidates) {
    const found = text(candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

const CLOUD_EVENT_NAMES = ["specversion", "id", "type", "time", "tenantid"];
const LEGACY_NAMES = ["cloudEventsVersion", "eventId", "eventType", "eventTime", "extensions"];

function formatOf(body: Record<string, unknown>): EnvelopeFormat {
  const cloud = CLOUD_EVENT_NAMES.some((name) => name in body);
  const legacy = LEGACY_NAMES.some((name) => name in body);
  if (cloud && legacy) return "hybrid";
  return legacy ? "legacy" : "cloudevents";
}

/** Adds the attributes that are present, so that an absent one is no key at all. */
function present<T extends Record<string, string | undefined>>(values: T): Partial<Record<keyof T, string>> {
  const out: Partial<Record<keyof T, string>> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) out[key as keyof T] = value;
  }
  return out;
}

export function readCloudEvent(body: unknown): EnvelopeReading {
  if (!isRecord(body)) return { ok: false, problem: "the body is not a JSON object" };
  const extensions = isRecord(body.extensions) ? body.extensions : {};
  const type = first(body.type, body.eventType);
  if (type === undefined) return { ok: false, problem: "the body names no event type (type or eventType)" };
  const attributes = present({
    id: first(body.id, body.eventId),
    time: first(body.time, body.eventTime),
    tenantId: first(body.tenantid, extensions.tenantId, body.tenantId),
    userId: first(body.userid, extensions.userId, body.userId),
    ownerId: first(body.ownerid, extensions.ownerId),
    spaceId: first(body.spaceid, extensions.spaceId),
    topLevelResourceId: first(body.toplevelresourceid, extensions.topLevelResourceId),
  });
  // An audit item's `id` is the audit record's own; its event's id is `eventId`.
  if ("eventId" in body && text(body.eventId) !== undefined && !("specversion" in body)) {
    attributes.id = text(body.eventId) as string;
  }
  return { ok: true, envelope: { format: formatOf(body), type, ...attributes, data: body.data } };
}
