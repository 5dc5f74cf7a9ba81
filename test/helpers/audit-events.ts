/** Builders of accepted audit events for destination and queue tests. */
import { randomUUID } from "node:crypto";
import type { AcceptedEvent, AuditEnvelope } from "../../core/audit/accepted-event.ts";
import { nestedEnvelopeText } from "./audit-envelopes.ts";

/** Two eventIds whose time offsets are equal (found by search: 837,775 ns each). */
export const COLLIDING_EVENT_IDS = [
  "00000000-0000-4000-8000-000000000518",
  "00000000-0000-4000-8000-000000002080",
] as const;

export function acceptedEvent(overrides: Partial<AuditEnvelope> = {}): AcceptedEvent {
  return {
    envelope: {
      schemaVersion: 1,
      eventId: randomUUID(),
      timestamp: "2026-03-08T16:46:26.181Z",
      type: "object.view.duration",
      correlationId: "1777868693436",
      payload: {
        context: {
          appId: "0a1b2c3d-0000-4000-8000-000000000001",
          appName: "Sales",
          sheetId: "sheet-1",
          sheetName: "Overview",
          user: "UserDirectory=LAB; UserId=goran",
        },
        event: {
          objectId: "obj-1",
          duration: 1500,
          visible: false,
          enteredAt: "2026-03-08T16:46:24.681Z",
          leftAt: "2026-03-08T16:46:26.181Z",
          selectionTxnId: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
          dataStateId: 1777868693436,
        },
      },
      ...overrides,
    },
    receivedAt: "2026-03-08T16:46:26.300Z",
    clientIp: "127.0.0.1",
  };
}

/** The smallest accepted event: a generic `audit.event` with an empty payload, for queue tests. */
export function bareAuditEvent(eventId = "e"): AcceptedEvent {
  return {
    envelope: {
      schemaVersion: 1,
      eventId,
      timestamp: "2026-01-01T00:00:00Z",
      type: "audit.event",
      payload: {},
    },
    receivedAt: "2026-01-01T00:00:00.000Z",
    clientIp: "10.0.0.1",
  };
}

/** A screenshot event carrying objectData, as the browser client sends it. */
export function objectDataEvent(objectData: Record<string, unknown>, overrides: Partial<AuditEnvelope> = {}) {
  return acceptedEvent({
    type: "screenshot.url.received",
    payload: {
      context: { appName: "Sales", user: "LAB\\anna" },
      event: {
        screenshotUrl: "https://qlik.example/shot.png",
        selectionTxnId: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
        objectId: "obj-2",
        objectData,
      },
    },
    ...overrides,
  });
}

/** Events exercising odd but valid content: unicode, empty strings, offsets, missing members. */
export function oddEvents(): AcceptedEvent[] {
  return [
    acceptedEvent({
      timestamp: "2026-03-08T23:30:00.5+02:00",
      payload: {
        context: { appName: 'Umsatz 📈 ÅÄÖ "quoted" back\\slash', user: "", sheetName: "" },
        event: { objectId: "Ω,=space here", duration: 1234.5, visible: true, selectionTxnId: "" },
      },
    }),
    acceptedEvent({ type: "navigation.sheet.loaded", payload: {} }),
    acceptedEvent({
      timestamp: "2026-03-09 00:15:00z",
      correlationId: "",
      payload: { context: { user: "N/A" } },
    }),
    objectDataEvent({
      objectType: "table",
      dimensions: [{ fieldName: "Region", label: "Region", values: ["Nord", "Süd", "", "東京"] }],
    }),
  ];
}

/**
 * An objectData event whose `objectData.a` holds `depth` nested arrays, as an older Steward took
 * it (before ingest refused JSON nested deeper than 64 levels): JSON.stringify cannot encode it
 * (nestedEnvelopeText).
 */
export function deeplyNestedEvent(depth = 100_000): AcceptedEvent {
  const envelope = JSON.parse(
    nestedEnvelopeText(randomUUID(), depth, "2026-03-08T16:46:26.181Z"),
  ) as AuditEnvelope;
  return { envelope, receivedAt: "2026-03-08T16:46:26.300Z", clientIp: "127.0.0.1" };
}
