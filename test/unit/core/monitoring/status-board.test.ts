import { describe, expect, it } from "vitest";
import { createStatusBoard, STATUS_SECTIONS } from "../../../../core/monitoring/status-board.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";

describe("status board", () => {
  it("reads every registered snapshot per document, sums the event sources and keeps the last error per destination", () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const board = createStatusBoard({ version: "15.0.0", clock });
    let received = 2;
    board.countEvents(() => received);
    board.countEvents(() => 3);
    board.set("udpQueues", "user_events", () => ({ waiting: received }));
    board.setEventCounts(() => ({ "user.proxy": 4 }));
    board.noteError("timeseriesdb", new Error("first"));
    clock.advance(1500);
    board.noteError("timeseriesdb", new Error("connection refused"));
    received = 7;

    const doc = board.document();

    expect(doc).toMatchObject({
      version: "15.0.0",
      uptimeSeconds: 1.5,
      eventsTotal: 10,
      udpQueues: { user_events: { waiting: 7 } },
      eventCounts: { "user.proxy": 4 },
      lastErrors: { timeseriesdb: { at: "2026-01-01T12:00:01.500Z", message: "connection refused" } },
      listeners: {},
      pollers: {},
      audit: {},
      destinations: {},
      stores: {},
    });
  });

  it("answers even when a snapshot throws, showing its error", () => {
    const board = createStatusBoard({ version: "15.0.0", clock: createManualClock(0) });
    board.set("pollers", "health", () => {
      throw new Error("broken");
    });
    expect(board.document().pollers).toEqual({ health: { error: "broken" } });
  });

  it("shows what a part registered in every section, the service monitor's and the kept script logs' too", () => {
    const board = createStatusBoard({ version: "15.0.0", clock: createManualClock(0) });
    for (const section of STATUS_SECTIONS) board.set(section, "part", () => ({ from: section }));

    const doc = board.document() as unknown as Record<string, unknown>;

    for (const section of STATUS_SECTIONS) expect(doc[section], section).toEqual({ part: { from: section } });
    expect(doc.serviceMonitor).toEqual({ part: { from: "serviceMonitor" } });
  });
});
