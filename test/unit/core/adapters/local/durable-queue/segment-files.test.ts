import { describe, expect, it } from "vitest";
import {
  segmentBaseOf,
  segmentFileName,
} from "../../../../../../core/adapters/local/durable-queue/segment-files.ts";

describe("durable log segment files", () => {
  it("names segments by their first position so that names sort as numbers", () => {
    const names = [10_000, 9, 123_456_789].map(segmentFileName);

    expect([...names].sort().map(segmentBaseOf)).toEqual([9, 10_000, 123_456_789]);
    expect(segmentBaseOf("00000000000000000009.log.tmp")).toBeUndefined();
    expect(segmentBaseOf("cursors")).toBeUndefined();
  });
});
