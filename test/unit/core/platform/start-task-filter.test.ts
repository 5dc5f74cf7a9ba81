import { describe, expect, it } from "vitest";
import {
  allowsNothing,
  createStartTaskFilter,
  NOT_ALLOWED,
  type StartTaskFilterSettings,
} from "../../../../core/platform/start-task-filter.ts";
import type { PlatformTask } from "../../../../core/ports.ts";

const SALES: PlatformTask = {
  id: "a1b2c3d4-1111-4aaa-8bbb-000000000001",
  name: "Reload Sales",
  tags: ["nightly", "finance"],
  customProperties: [
    { name: "taskGroup", value: "tasks1" },
    { name: "Department", value: "Finance" },
  ],
};

const settings = (allowTask: Partial<StartTaskFilterSettings["allowTask"]>, enable = true) => ({
  enable,
  allowTask: { taskId: [], tag: [], customProperty: [], ...allowTask },
});

describe("startTaskFilter", () => {
  it("allows every task when it is off, whatever it lists", () => {
    const filter = createStartTaskFilter(
      settings({ taskId: ["a1b2c3d4-9999-4aaa-8bbb-000000000009"] }, false),
    );
    expect(filter.enabled).toBe(false);
    expect(filter.refusal(SALES)).toBeUndefined();
  });

  it("refuses every task when it is on and lists nothing, and says so", () => {
    const nothing = settings({});
    expect(createStartTaskFilter(nothing).refusal(SALES)).toBe(NOT_ALLOWED);
    expect(allowsNothing(nothing)).toBe(true);
    expect(allowsNothing(settings({ tag: ["nightly"] }))).toBe(false);
    expect(allowsNothing(settings({}, false))).toBe(false);
  });

  it("allows a task by its id, in either case", () => {
    expect(
      createStartTaskFilter(settings({ taskId: [SALES.id.toUpperCase()] })).refusal(SALES),
    ).toBeUndefined();
  });

  it("allows a task by any one of its tags, compared exactly", () => {
    expect(createStartTaskFilter(settings({ tag: ["finance"] })).refusal(SALES)).toBeUndefined();
    expect(createStartTaskFilter(settings({ tag: ["Finance", "hr"] })).refusal(SALES)).toBe(NOT_ALLOWED);
  });

  it("allows a task by a custom property name and value held together, not by a name or value alone", () => {
    const pair = settings({ customProperty: [{ name: "taskGroup", value: "tasks1" }] });
    expect(createStartTaskFilter(pair).refusal(SALES)).toBeUndefined();
    const crossed = settings({ customProperty: [{ name: "taskGroup", value: "Finance" }] });
    expect(createStartTaskFilter(crossed).refusal(SALES)).toBe(NOT_ALLOWED);
  });

  it("adds the three lists up: a task in one of them is allowed, one in none is refused", () => {
    const filter = createStartTaskFilter(
      settings({
        taskId: ["a1b2c3d4-2222-4aaa-8bbb-000000000002"],
        tag: ["hr"],
        customProperty: [{ name: "Department", value: "Finance" }],
      }),
    );
    expect(filter.refusal(SALES)).toBeUndefined();
    expect(
      filter.refusal({ ...SALES, id: "a1b2c3d4-2222-4aaa-8bbb-000000000002", customProperties: [] }),
    ).toBeUndefined();
    expect(filter.refusal({ ...SALES, tags: ["hr"], customProperties: [] })).toBeUndefined();
    expect(filter.refusal({ ...SALES, tags: [], customProperties: [] })).toBe(NOT_ALLOWED);
  });

  it("names no tag or custom property value of the refused task in its reason", () => {
    const reason = createStartTaskFilter(settings({ tag: ["hr"] })).refusal(SALES) ?? "";
    for (const privateText of ["nightly", "finance", "tasks1", "Finance"])
      expect(reason).not.toContain(privateText);
    expect(reason).toContain("startTaskFilter.allowTask");
  });
});
