import { describe, expect, it } from "vitest";
import { createDurationWindow } from "../../../core/duration-window.ts";

describe("createDurationWindow", () => {
  it("reports average, p95, p99 and maximum as Butler SOS computes them", () => {
    const window = createDurationWindow();
    // Recorded out of order: the percentiles are over the sorted samples.
    for (let ms = 100; ms >= 1; ms -= 1) window.record(ms);

    expect(window.stats()).toEqual({ count: 100, avgMs: 50.5, p95Ms: 95, p99Ms: 99, maxMs: 100 });
  });

  it("takes the percentile at index ceil(q·n) − 1 for small samples", () => {
    const window = createDurationWindow();
    for (const ms of [4, 1, 3, 2]) window.record(ms);

    const stats = window.stats();

    expect([stats.p95Ms, stats.p99Ms, stats.maxMs]).toEqual([4, 4, 4]);
  });

  it("keeps only the last `capacity` samples", () => {
    const window = createDurationWindow(3);
    for (const ms of [1000, 1, 2, 3]) window.record(ms);

    expect(window.stats()).toMatchObject({ count: 3, maxMs: 3, avgMs: 2 });
  });

  it("reports only the samples recorded after a mark, and zeros when there are none", () => {
    const window = createDurationWindow();
    window.record(50);
    const mark = window.mark();
    const empty = window.stats(mark);
    window.record(2);
    window.record(4);

    expect(empty).toEqual({ count: 0, avgMs: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 });
    expect(window.stats(mark)).toMatchObject({ count: 2, avgMs: 3, maxMs: 4 });
    expect(window.stats()).toMatchObject({ count: 3, maxMs: 50 });
  });
});
