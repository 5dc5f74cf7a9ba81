import { describe, expect, it } from "vitest";
import {
  bytesOnDisk,
  clampCursor,
  deletableSegmentCount,
  segmentIndexOf,
  slowestCursor,
} from "../../../../../../core/adapters/local/durable-queue/log-positions.ts";

describe("durable log positions", () => {
  it("finds the segment holding a position", () => {
    const bases = [0, 100, 250];

    expect([0, 99, 100, 249, 250, 10_000].map((p) => segmentIndexOf(bases, p))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(segmentIndexOf([100], 50)).toBe(-1);
  });

  it("deletes a segment only once every cursor is at or past its end, never the active one", () => {
    const bases = [0, 100, 250];

    expect(deletableSegmentCount(bases, 99)).toBe(0);
    expect(deletableSegmentCount(bases, 100)).toBe(1);
    expect(deletableSegmentCount(bases, 249)).toBe(1);
    expect(deletableSegmentCount(bases, 10_000)).toBe(2);
  });

  it("names the destination furthest behind", () => {
    const cursors = new Map([
      ["parquet", 500],
      ["timeseriesdb", 120],
      ["json", 900],
    ]);

    expect(slowestCursor(cursors)).toEqual({ destination: "timeseriesdb", position: 120 });
    expect(slowestCursor(new Map())).toBeUndefined();
  });

  it("keeps cursors inside the kept log; a missing one starts at the oldest kept byte", () => {
    expect(clampCursor(undefined, 100, 900)).toBe(100);
    expect(clampCursor(50, 100, 900)).toBe(100);
    expect(clampCursor(5000, 100, 900)).toBe(900);
    expect(clampCursor(300, 100, 900)).toBe(300);
  });

  it("counts the bytes kept from the oldest segment to the end", () => {
    expect(bytesOnDisk([100, 250], 400)).toBe(300);
    expect(bytesOnDisk([], 0)).toBe(0);
  });
});
