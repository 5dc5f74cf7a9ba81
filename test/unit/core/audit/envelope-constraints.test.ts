import { describe, expect, it } from "vitest";
import type { AuditEnvelope } from "../../../../core/audit/accepted-event.ts";
import { checkEnvelopeConstraints } from "../../../../core/audit/envelope-constraints.ts";
import { KNOWN_EVENT_TYPES } from "../../../../core/audit/event-types.ts";
import { UUID_A, validEnvelope } from "../../../helpers/audit-envelopes.ts";

const options = { correlationIdMaxLength: 64 };

function check(overrides: Record<string, unknown>) {
  return checkEnvelopeConstraints(validEnvelope(overrides) as unknown as AuditEnvelope, options);
}

describe("checkEnvelopeConstraints (422 layer)", () => {
  it("passes a valid envelope", () => {
    expect(check({})).toEqual([]);
  });

  it.each([UUID_A.toUpperCase(), "00000000-0000-0000-0000-000000000000"])("accepts eventId %s", (eventId) => {
    expect(check({ eventId })).toEqual([]);
  });

  it.each(["x", `urn:uuid:${UUID_A}`, `${UUID_A}0`])("rejects a non-UUID eventId %s", (eventId) => {
    expect(check({ eventId })).toEqual([
      { instancePath: "/eventId", message: expect.stringContaining("eventId is not a valid UUID") },
    ]);
  });

  it("accepts a correlationId of exactly the maximum and rejects one longer", () => {
    expect(check({ correlationId: "a".repeat(64) })).toEqual([]);
    expect(check({ correlationId: "a".repeat(65) })).toEqual([
      { instancePath: "/correlationId", message: "correlationId exceeds 64 characters (length=65)" },
    ]);
  });

  it("takes the correlationId maximum from the options", () => {
    const envelope = validEnvelope({ correlationId: "abcdef" }) as unknown as AuditEnvelope;

    expect(checkEnvelopeConstraints(envelope, { correlationIdMaxLength: 5 })).toHaveLength(1);
  });

  it.each([["not-a-uuid"], [null], [42]])("rejects payload.context.appId %j", (appId) => {
    expect(check({ payload: { context: { appId } } }).map((v) => v.instancePath)).toEqual([
      "/payload/context/appId",
    ]);
  });

  it("does not require payload.context.appId", () => {
    expect(check({ payload: { context: {} } })).toEqual([]);
  });

  it.each([...KNOWN_EVENT_TYPES, "event.custom"])("accepts type %s", (type) => {
    expect(check({ type })).toEqual([]);
  });

  it.each(["selection.transaction.finalized", "event.", "unknown.type", "Event.x"])(
    "rejects type %s",
    (type) => {
      expect(check({ type }).map((v) => v.instancePath)).toEqual(["/type"]);
    },
  );

  it("lists every violation", () => {
    const violations = check({
      eventId: "x",
      type: "nope",
      correlationId: "c".repeat(100),
      payload: { context: { appId: "y" } },
    });

    expect(violations.map((v) => v.instancePath)).toEqual([
      "/eventId",
      "/correlationId",
      "/payload/context/appId",
      "/type",
    ]);
  });

  it("shortens a huge value quoted in a message", () => {
    const [violation] = check({ eventId: "x".repeat(100_000) });

    expect(violation?.message.length).toBeLessThan(200);
  });
});
