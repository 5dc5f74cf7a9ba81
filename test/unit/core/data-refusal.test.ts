import { describe, expect, it } from "vitest";
import { isDataRefusal } from "../../../core/data-refusal.ts";
import { TimeseriesWriteError } from "../../../core/destinations/timeseries-write-error.ts";
import { ObservabilityPostError } from "../../../core/observability/observability-post-error.ts";

describe("isDataRefusal", () => {
  it("counts a 4xx about the data as a refusal, 413 included", () => {
    expect([400, 413, 415, 422].map(isDataRefusal)).toEqual([true, true, true, true]);
  });

  it("counts set-up and load answers (401, 403, 404, 408, 429) as outages", () => {
    expect([401, 403, 404, 408, 429].map(isDataRefusal)).toEqual([false, false, false, false, false]);
  });

  it("counts no answer, 5xx and 2xx/3xx as not a refusal", () => {
    expect([undefined, 500, 503, 204, 302].map(isDataRefusal)).toEqual([false, false, false, false, false]);
  });

  it("is what both write errors answer for refusesData", () => {
    for (const status of [undefined, 400, 404, 413, 429, 503]) {
      expect(new TimeseriesWriteError("x", status).refusesData).toBe(isDataRefusal(status));
      expect(new ObservabilityPostError("acct", status, "x").refusesData).toBe(isDataRefusal(status));
    }
  });
});
