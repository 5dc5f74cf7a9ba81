import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { extractAuditFacts } from "../../../../core/audit/audit-facts.ts";
import { toAuditPoint } from "../../../../core/destinations/audit-point.ts";
import { eventTimeOffsetNs } from "../../../../core/destinations/event-time-offset.ts";
import { encodePoint } from "../../../../core/destinations/line-protocol.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";

describe("eventTimeOffsetNs", () => {
  it("is fixed by the eventId alone: a replayed event rewrites its own point, in any process or version", () => {
    // FNV-1a (32 bit) modulo 1,000,000, worked out independently; a change would move every
    // point already written, and a replay after it would write a second point.
    expect(eventTimeOffsetNs("0b6f2b4e-1c1d-4d3e-9a7b-000000000001")).toBe(842_989);
    expect(eventTimeOffsetNs("0b6f2b4e-1c1d-4d3e-9a7b-000000000002")).toBe(510_132);
    expect(eventTimeOffsetNs("a")).toBe(2_220);
  });

  it("stays within one millisecond and keeps 10,000 distinct eventIds apart", () => {
    const offsets = Array.from({ length: 10_000 }, () => eventTimeOffsetNs(randomUUID()));

    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThanOrEqual(999_999);
    // Birthday bound for 10,000 draws from 1,000,000: about 50 collisions expected.
    expect(new Set(offsets).size).toBeGreaterThan(9_850);
  });

  it("puts two events of one millisecond at distinct nanoseconds, each within its own millisecond", () => {
    const options = { measurementName: "audit_event", staticTags: [] };
    const [a, b] = [acceptedEvent(), acceptedEvent()].map((event) =>
      encodePoint(toAuditPoint(extractAuditFacts(event), options)),
    );
    const time = (line: string | undefined) => BigInt(line?.slice(line.lastIndexOf(" ") + 1) ?? "0");
    const ms = BigInt(Date.parse("2026-03-08T16:46:26.181Z"));

    expect(time(a)).not.toBe(time(b));
    expect(time(a) / 1_000_000n).toBe(ms);
    expect(time(b) / 1_000_000n).toBe(ms);
  });
});
