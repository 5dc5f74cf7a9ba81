import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  AppReloadBodySchema,
  TaskStartBodySchema,
  TaskStartQuerySchema,
} from "../../../../core/platform/schemas.ts";

describe("platform request schemas", () => {
  it("fills app reload defaults from an empty body", () => {
    expect(v.parse(AppReloadBodySchema, {})).toEqual({
      reloadMode: 0,
      partialReload: false,
      startPlatformTaskOnSuccess: [],
      startPlatformTaskOnFailure: [],
    });
  });

  it("defaults a key-value item's ttl to 0 (no expiry)", () => {
    const [item] = v.parse(TaskStartBodySchema, [
      { type: "keyvaluestore", payload: { namespace: "n", key: "k", value: "v" } },
    ]);
    expect(item).toEqual({
      type: "keyvaluestore",
      payload: { namespace: "n", key: "k", value: "v", ttl: 0 },
    });
  });

  it("reads allTaskIdsMustExist as a boolean, absent = false", () => {
    expect(v.parse(TaskStartQuerySchema, {})).toEqual({ allTaskIdsMustExist: false });
    expect(v.parse(TaskStartQuerySchema, { allTaskIdsMustExist: "true" })).toEqual({
      allTaskIdsMustExist: true,
    });
  });
});
