import { describe, expect, it } from "vitest";
import { checkPayload } from "../../../../core/audit/payload-schemas.ts";
import { UUID_B, VALID_PAYLOADS } from "../../../helpers/audit-envelopes.ts";

function withEvent(type: string, event: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const base = VALID_PAYLOADS[type] ?? {};
  return { ...base, ...extra, event: { ...(base.event as Record<string, unknown>), ...event } };
}

function pointers(type: string, payload: Record<string, unknown>) {
  return checkPayload(type, payload).map((v) => v.instancePath);
}

const crop = { width: 100, height: 50 };

describe("checkPayload (per-type schemas, 422): every type", () => {
  it.each(Object.entries(VALID_PAYLOADS))("accepts a minimal valid %s payload", (type, payload) => {
    expect(checkPayload(type, payload)).toEqual([]);
  });

  it("keeps unknown members at every level (open schemas)", () => {
    const payload = withEvent("selection.state.changed", { extra: 1 }, { more: true, context: { other: 1 } });

    expect(checkPayload("selection.state.changed", payload)).toEqual([]);
  });

  it.each([
    "selection.state.changed",
    "app.model.validated",
    "screenshot.url.received",
    "event.unsupported.visualization",
    "object.view.duration",
  ])("requires payload.event for %s", (type) => {
    expect(checkPayload(type, {})).toEqual([
      { instancePath: "/payload/event", message: "/payload/event is required" },
    ]);
  });

  it("rejects payload.event given as an array", () => {
    expect(pointers("app.model.validated", { event: [] })).toEqual(["/payload/event"]);
  });

  it("does not validate payloads of types without a schema", () => {
    expect(checkPayload("navigation.sheet.loaded", { event: 5 })).toEqual([]);
    expect(checkPayload("event.custom", {})).toEqual([]);
  });
});

describe("checkPayload (per-type schemas, 422): selection, app model and screenshot payloads", () => {
  describe("selection.state.changed", () => {
    it("accepts 500 details and rejects 501", () => {
      expect(
        pointers(
          "selection.state.changed",
          withEvent("selection.state.changed", { details: new Array(500).fill({}) }),
        ),
      ).toEqual([]);
      expect(
        pointers(
          "selection.state.changed",
          withEvent("selection.state.changed", { details: new Array(501).fill({}) }),
        ),
      ).toEqual(["/payload/event/details"]);
    });

    it("accepts an upper-case selectionTxnId and rejects a non-UUID one", () => {
      expect(
        pointers(
          "selection.state.changed",
          withEvent("selection.state.changed", { selectionTxnId: UUID_B.toUpperCase() }),
        ),
      ).toEqual([]);
      expect(
        pointers("selection.state.changed", withEvent("selection.state.changed", { selectionTxnId: "abc" })),
      ).toEqual(["/payload/event/selectionTxnId"]);
    });
  });

  describe("app.model.validated", () => {
    it.each([["1"], [1.5]])("rejects dataStateId %j", (dataStateId) => {
      expect(pointers("app.model.validated", withEvent("app.model.validated", { dataStateId }))).toEqual([
        "/payload/event/dataStateId",
      ]);
    });

    it("rejects a non-boolean captureScheduled", () => {
      expect(
        pointers("app.model.validated", withEvent("app.model.validated", { captureScheduled: "yes" })),
      ).toEqual(["/payload/event/captureScheduled"]);
    });
  });

  describe("screenshot.url.received", () => {
    it("rejects a relative screenshotUrl", () => {
      expect(
        pointers(
          "screenshot.url.received",
          withEvent("screenshot.url.received", { screenshotUrl: "/shot.png" }),
        ),
      ).toEqual(["/payload/event/screenshotUrl"]);
    });

    it("accepts a well-formed crop with fractions", () => {
      const event = {
        crop: {
          ...crop,
          top: 0,
          left: 1.5,
          scrollTop: 10.25,
          scrollAreaOffsetY: 0,
          renderingOverflow: 32767,
        },
      };
      expect(pointers("screenshot.url.received", withEvent("screenshot.url.received", event))).toEqual([]);
    });

    it.each([
      [{ width: 0, height: 1 }, "/payload/event/crop/width"],
      [{ width: 1, height: 0 }, "/payload/event/crop/height"],
      [{ width: 32768, height: 1 }, "/payload/event/crop/width"],
      [{ width: "100", height: 1 }, "/payload/event/crop/width"],
      [{ height: 1 }, "/payload/event/crop/width"],
      [{ ...crop, top: -1 }, "/payload/event/crop/top"],
      [{ ...crop, left: -0.5 }, "/payload/event/crop/left"],
      [{ ...crop, scrollTop: 40000 }, "/payload/event/crop/scrollTop"],
      [{ ...crop, scrollAreaOffsetY: -1 }, "/payload/event/crop/scrollAreaOffsetY"],
      [{ ...crop, renderingOverflow: -1 }, "/payload/event/crop/renderingOverflow"],
    ])("rejects crop %j at %s", (badCrop, pointer) => {
      expect(
        pointers("screenshot.url.received", withEvent("screenshot.url.received", { crop: badCrop })),
      ).toEqual([pointer]);
    });
  });
});

describe("checkPayload (per-type schemas, 422): unsupported visualization, view duration and context", () => {
  describe("event.unsupported.visualization", () => {
    it("rejects a vizType over 64 characters and accepts a string dataStateId", () => {
      expect(
        pointers(
          "event.unsupported.visualization",
          withEvent("event.unsupported.visualization", { vizType: "v".repeat(65) }),
        ),
      ).toEqual(["/payload/event/vizType"]);
      expect(
        pointers(
          "event.unsupported.visualization",
          withEvent("event.unsupported.visualization", { dataStateId: "17" }),
        ),
      ).toEqual([]);
    });
  });

  describe("object.view.duration", () => {
    it("accepts a fractional duration and null optionals", () => {
      const event = {
        duration: 0.5,
        enteredAt: null,
        visible: null,
        selectionTxnId: null,
        dataStateId: null,
      };
      expect(pointers("object.view.duration", withEvent("object.view.duration", event))).toEqual([]);
    });

    it("lists every violation", () => {
      const event = {
        objectId: "o".repeat(65),
        duration: -1,
        leftAt: "2026-01-01",
        dataStateId: 1.5,
        enterSelectionTxnId: "x".repeat(37),
      };
      expect(pointers("object.view.duration", withEvent("object.view.duration", event))).toEqual([
        "/payload/event/objectId",
        "/payload/event/duration",
        "/payload/event/leftAt",
        "/payload/event/enterSelectionTxnId",
        "/payload/event/dataStateId",
      ]);
    });
  });

  describe("context", () => {
    it.each([
      ["appName", 65],
      ["sheetId", 65],
      ["sheetName", 65],
      ["user", 257],
      ["userAgent", 513],
    ])("rejects context.%s longer than allowed", (member, length) => {
      const payload = withEvent("app.model.validated", {}, { context: { [member]: "x".repeat(length) } });
      expect(pointers("app.model.validated", payload)).toEqual([`/payload/context/${member}`]);
    });
  });
});
