/** Valid audit envelopes and per-type payloads for tests; override what a test is about. */

export const UUID_A = "0b6f2b4e-1c1d-4d3e-9a7b-2f7c1d2e3f4a";
export const UUID_B = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/** A minimal valid payload for each of the nine known types. */
export const VALID_PAYLOADS: Record<string, Record<string, unknown>> = {
  "selection.state.changed": { event: { selectionTxnId: UUID_B, details: [] } },
  "object.visibility.changed": { event: {} },
  "object.view.duration": { event: { objectId: "obj1", duration: 1500.5, leftAt: "2026-01-01T00:00:01Z" } },
  "navigation.sheet.loaded": { context: { appId: UUID_A, sheetId: "s1" }, event: {} },
  "app.model.validated": { event: { selectionTxnId: UUID_B, dataStateId: 3, captureScheduled: null } },
  "screenshot.url.received": {
    event: { screenshotUrl: "https://qlik.example/shot.png", selectionTxnId: UUID_B },
  },
  "event.bookmark": { event: { name: "b" } },
  "event.unsupported.visualization": { event: { vizType: "map", selectionTxnId: UUID_B } },
  "audit.event": {},
};

export function validEnvelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemaVersion: 1,
    eventId: UUID_A,
    timestamp: "2026-01-01T12:00:00.123Z",
    type: "navigation.sheet.loaded",
    payload: VALID_PAYLOADS["navigation.sheet.loaded"],
    ...overrides,
  };
}

/** An envelope of `type` with its valid payload, `event` members overridden by `event`. */
export function envelopeOfType(type: string, event: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = VALID_PAYLOADS[type] ?? {};
  const baseEvent = (payload.event ?? {}) as Record<string, unknown>;
  return validEnvelope({ type, payload: { ...payload, event: { ...baseEvent, ...event } } });
}

/**
 * The JSON text of a bookmark event whose `objectData.a` holds `depth` nested arrays, as a client
 * posts it: with 100,000 it fits in the 1 MiB body limit, JSON.parse takes it, and JSON.stringify
 * of it throws a RangeError (so it can only be built as text).
 */
export function nestedEnvelopeText(
  eventId: string,
  depth: number,
  timestamp = new Date().toISOString(),
): string {
  const envelope = envelopeOfType("event.bookmark", { objectData: { objectType: "x", a: "A" } });
  return JSON.stringify({ ...envelope, eventId, timestamp }).replace(
    '"a":"A"',
    `"a":${"[".repeat(depth)}${"]".repeat(depth)}`,
  );
}
