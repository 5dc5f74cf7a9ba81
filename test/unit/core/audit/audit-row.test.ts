import { describe, expect, it } from "vitest";
import { extractAuditFacts, parseTimestamp } from "../../../../core/audit/audit-facts.ts";
import { AUDIT_COLUMNS, isoUtcDate, toAuditRow } from "../../../../core/audit/audit-row.ts";
import { acceptedEvent, objectDataEvent, oddEvents } from "../../../helpers/audit-events.ts";

describe("toAuditRow", () => {
  it("maps an object.view.duration event onto the 25 columns of Butler SOS's audit row", () => {
    const event = acceptedEvent();

    const row = toAuditRow(extractAuditFacts(event), { site: "north" });

    expect(Object.keys(row)).toEqual(AUDIT_COLUMNS.map((column) => column.name));
    expect(row).toEqual({
      timestamp: Date.parse("2026-03-08T16:46:26.181Z"),
      date: "20260308",
      eventId: event.envelope.eventId,
      correlationId: "1777868693436",
      eventType: "object.view.duration",
      user: "UserDirectory=LAB; UserId=goran",
      userDirectory: "LAB",
      userId: "goran",
      appId: "0a1b2c3d-0000-4000-8000-000000000001",
      appName: "Sales",
      sheetId: "sheet-1",
      sheetName: "Overview",
      objectId: "obj-1",
      objectType: null,
      selectionTxnId: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
      durationMs: 1500,
      visible: false,
      enteredAt: "2026-03-08T16:46:24.681Z",
      leftAt: "2026-03-08T16:46:26.181Z",
      dataStateId: 1777868693436,
      selectionDetails: null,
      screenshotUrl: null,
      screenshotSavedPaths: null,
      objectData: null,
      tags: '{"site":"north"}',
    });
  });

  it("derives timestamp and date in UTC from a timestamp with an offset", () => {
    const [withOffset] = oddEvents();

    const row = toAuditRow(extractAuditFacts(withOffset!), null);

    expect(row.timestamp).toBe(Date.parse("2026-03-08T21:30:00.500Z"));
    expect(row.date).toBe("20260308");
  });

  it("turns empty strings into null and keeps a fractional duration out of the integer column", () => {
    const [odd] = oddEvents();

    const facts = extractAuditFacts(odd!);
    const row = toAuditRow(facts, null);

    expect(row.user).toBeNull();
    expect(row.sheetName).toBeNull();
    expect(row.selectionTxnId).toBeNull();
    expect(row.durationMs).toBeNull();
    expect(facts.durationMs).toBe(1234.5);
  });

  it("reduces selection details and stores objectData as JSON", () => {
    const selection = acceptedEvent({
      type: "selection.state.changed",
      payload: {
        event: {
          selectionTxnId: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
          details: [{ qField: "Region", qSelectedCount: 1, qSelected: "Nord", qExtra: "dropped" }],
        },
      },
    });
    const withObjectData = objectDataEvent({ objectType: "barchart", measures: [] });

    const selectionRow = toAuditRow(extractAuditFacts(selection), null);
    const objectRow = toAuditRow(extractAuditFacts(withObjectData), null);

    expect(selectionRow.selectionDetails).toBe('[{"qField":"Region","qSelectedCount":1,"qSelected":"Nord"}]');
    expect(objectRow.objectType).toBe("barchart");
    expect(objectRow.objectData).toBe('{"objectType":"barchart","measures":[]}');
    expect(objectRow.userDirectory).toBe("LAB");
  });

  it("accepts digit-string dataStateIds and keeps 0", () => {
    const fromString = acceptedEvent({ payload: { event: { dataStateId: "1777868693436" } } });
    const zero = acceptedEvent({ payload: { event: { dataStateId: 0 } } });

    expect(extractAuditFacts(fromString).dataStateId).toBe(1777868693436);
    expect(extractAuditFacts(zero).dataStateId).toBe(0);
  });
});

describe("parseTimestamp", () => {
  it.each([
    ["2026-03-08T16:46:26Z", Date.UTC(2026, 2, 8, 16, 46, 26)],
    ["2026-03-08t16:46:26z", Date.UTC(2026, 2, 8, 16, 46, 26)],
    ["2026-03-08 18:46:26+02:00", Date.UTC(2026, 2, 8, 16, 46, 26)],
    ["not a time", null],
  ])("parses %j", (raw, expected) => {
    expect(parseTimestamp(raw)).toBe(expected);
  });
});

describe("isoUtcDate", () => {
  it("gives each instant its own UTC day, in any order, across midnight and before 1970", () => {
    const instants = [
      "2026-03-08T23:59:59.999Z",
      "2026-03-09T00:00:00.000Z",
      "2026-03-08T00:00:00.000Z",
      "2026-03-09T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "1970-01-01T00:00:00.000Z",
      "1969-12-31T00:00:00.001Z",
    ];

    expect(instants.map((instant) => isoUtcDate(Date.parse(instant)))).toEqual(
      instants.map((instant) => instant.slice(0, 10)),
    );
  });

  it("throws a RangeError for an instant a Date cannot hold, right after the last day it can", () => {
    const lastMs = 8.64e15;

    expect(() => isoUtcDate(lastMs)).not.toThrow();
    expect(() => isoUtcDate(lastMs + 1)).toThrow(RangeError);
    expect(() => isoUtcDate(Number.NaN)).toThrow(RangeError);
  });
});
