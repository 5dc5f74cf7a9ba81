/**
 * The EventQueue contract: every adapter passes this suite (in-process queue, SQS via
 * local-aws-sqs). An event that was answered "queued" reaches the consumer side intact.
 */

import { describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";
import type { EventQueue } from "../../core/ports.ts";

export interface EventQueueHarness {
  queue: EventQueue;
  /** Waits until `count` events reached the consumer side and returns them. */
  consumed(count: number): Promise<AcceptedEvent[]>;
}

function eventNo(n: number): AcceptedEvent {
  return {
    envelope: {
      schemaVersion: 1,
      eventId: `0b6f2b4e-1c1d-4d3e-9a7b-00000000000${n}`,
      timestamp: "2026-01-01T00:00:00+02:00",
      type: "selection.state.changed",
      payload: { event: { selectionTxnId: "7c9e6679-7425-40de-944b-e07fc1f90ae7", details: [{ q: "ä ✓" }] } },
      correlationId: "c",
      source: { kind: "qlik-sense-extension", name: "audit-qs", version: "0.3.0" },
    },
    receivedAt: "2026-01-01T00:00:00.123Z",
    clientIp: "2001:db8::7",
  };
}

export function describeEventQueueContract(
  name: string,
  createHarness: () => Promise<EventQueueHarness>,
): void {
  describe(`EventQueue contract: ${name}`, () => {
    it("answers queued and delivers the event intact, with client IP and receive time", async () => {
      const { queue, consumed } = await createHarness();

      const answer = await queue.enqueue(eventNo(1));
      const [event] = await consumed(1);

      expect(answer).toBe("queued");
      expect(event).toEqual(eventNo(1));
    });

    it("delivers every queued event", async () => {
      const { queue, consumed } = await createHarness();

      for (let n = 1; n <= 3; n++) await queue.enqueue(eventNo(n));
      const events = await consumed(3);

      expect(events.map((e) => e.envelope.eventId).sort()).toEqual(
        [1, 2, 3].map((n) => eventNo(n).envelope.eventId),
      );
    });
  });
}
