import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { extractAuditFacts } from "../../../../core/audit/audit-facts.ts";
import { toAuditPoint } from "../../../../core/destinations/audit-point.ts";
import { eventTimeOffsetNs, keepTimesApart } from "../../../../core/destinations/event-time-offset.ts";
import { encodePoint } from "../../../../core/shared/line-protocol.ts";
import { acceptedEvent, COLLIDING_EVENT_IDS } from "../../../helpers/audit-events.ts";

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

describe("keepTimesApart", () => {
  const point = (timestampMs: number | undefined, subMsNs?: number) => ({
    point: {
      measurement: "audit_event",
      tags: {},
      fields: {},
      ...(timestampMs === undefined ? {} : { timestampMs }),
      ...(subMsNs === undefined ? {} : { subMsNs }),
    },
  });

  it("moves a point whose time an earlier one of the batch has to the next free nanosecond", () => {
    const [a, b] = COLLIDING_EVENT_IDS.map(eventTimeOffsetNs);
    expect(a).toBe(b);

    const apart = keepTimesApart([point(1000, a), point(1000, b), point(1000, (a ?? 0) + 1), point(1001, a)]);

    expect(apart.map((entry) => [entry.point.timestampMs, entry.point.subMsNs])).toEqual([
      [1000, a],
      [1000, (a ?? 0) + 1],
      [1000, (a ?? 0) + 2],
      [1001, a],
    ]);
  });

  it("wraps within the millisecond, leaves points without a time alone and answers the same list in the same order", () => {
    const list = [point(5, 999_999), point(5, 999_999), point(undefined), point(undefined)];

    const apart = keepTimesApart(list);

    expect(apart.map((entry) => entry.point.subMsNs)).toEqual([999_999, 0, undefined, undefined]);
    expect(apart[0]).toBe(list[0]);
    expect(keepTimesApart(list)).toEqual(apart);
  });
});
