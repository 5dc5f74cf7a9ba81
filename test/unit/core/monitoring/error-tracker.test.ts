import { describe, expect, it } from "vitest";
import { categorizeError } from "../../../../core/monitoring/error-category.ts";
import { nullErrorTracker, startErrorTracker } from "../../../../core/monitoring/error-tracker.ts";
import { writeErrorType } from "../../../../core/monitoring/write-error-type.ts";
import type { Point } from "../../../../core/shared/line-protocol.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

function tracker(logSummary = true, startIso = "2026-03-08T22:00:00Z", version: 1 | 2 | 3 = 3) {
  const clock = createManualClock(Date.parse(startIso));
  const logger = recordingLogger();
  const points: Point[] = [];
  const errors = startErrorTracker({
    logSummary,
    measurementName: "butler_sos_errors",
    version,
    onPoint: (point) => points.push(point),
    clock,
    logger,
  });
  return { clock, logger, points, errors };
}

const summaries = (logger: ReturnType<typeof recordingLogger>) =>
  logger.entries.filter((entry) => entry.message.startsWith("error summary"));

describe("error tracker", () => {
  it("counts errors per type and per server", () => {
    const { errors } = tracker();
    errors.record("HEALTH_API", "sense1");
    errors.record("HEALTH_API", "sense1");
    errors.record("HEALTH_API", "sense2");
    errors.record("INFLUXDB_V1_WRITE", "");
    expect(errors.counts()).toEqual({
      day: "2026-03-08",
      total: 4,
      types: {
        HEALTH_API: { total: 3, servers: { sense1: 2, sense2: 1 } },
        INFLUXDB_V1_WRITE: { total: 1, servers: { "": 1 } },
      },
    });
  });

  it("logs the day's summary once at midnight UTC, not after each error, then starts again", () => {
    const { clock, logger, errors } = tracker(true);
    errors.record("PROXY_API", "sense1");
    errors.record("PROXY_API", "");
    expect(summaries(logger)).toEqual([]);
    clock.advance(2 * 3_600_000);
    const [summary, ...more] = summaries(logger);
    expect(more).toEqual([]);
    expect(summary?.level).toBe("info");
    expect(summary?.message).toBe("error summary for 2026-03-08 (UTC): 2 errors");
    expect(JSON.parse(String(summary?.fields?.details))).toEqual({
      PROXY_API: { total: 2, servers: { sense1: 1, _no_server_context: 1 } },
    });
    expect(errors.counts()).toEqual({ day: "2026-03-09", total: 0, types: {} });
    clock.advance(86_400_000);
    expect(summaries(logger)).toHaveLength(2);
  });

  it("logs no summary when logSummary is off, yet still starts the counts again at midnight", () => {
    const { clock, logger, errors } = tracker(false);
    errors.record("PROXY_API", "sense1");
    clock.advance(2 * 3_600_000);
    expect(summaries(logger)).toEqual([]);
    expect(errors.counts().total).toBe(0);
  });

  it("types error_count and http_status as Butler SOS did: floats on InfluxDB 1.x, integers on 2.x and 3.x", () => {
    const numbersOn = (version: 1 | 2 | 3) => {
      const { points, errors } = tracker(true, undefined, version);
      errors.record("HEALTH_API", "sense1", Object.assign(new Error("answered 503"), { status: 503 }));
      const fields = points[0]?.fields ?? {};
      return [fields.error_count, fields.http_status];
    };

    expect(numbersOn(1)).toEqual([
      { kind: "float", value: 1 },
      { kind: "float", value: 503 },
    ]);
    for (const version of [2, 3] as const) {
      expect(numbersOn(version)).toEqual([
        { kind: "integer", value: 1 },
        { kind: "integer", value: 503 },
      ]);
    }
  });

  it("makes one point per error with the type, server, category and known details", () => {
    const { points, errors, clock } = tracker();
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8086"), { code: "ECONNREFUSED" });
    errors.record("INFLUXDB_V1_WRITE", "", new Error("write failed", { cause: refused }));
    errors.record("HEALTH_API", "sense1", Object.assign(new Error("answered 503"), { status: 503 }));
    expect(points).toEqual([
      {
        measurement: "butler_sos_errors",
        tags: { error_type: "INFLUXDB_V1_WRITE", server_name: "" },
        fields: {
          error_count: { kind: "integer", value: 1 },
          error_category: { kind: "string", value: "connection_refused" },
          error_code: { kind: "string", value: "ECONNREFUSED" },
        },
        timestampMs: clock.now(),
      },
      {
        measurement: "butler_sos_errors",
        tags: { error_type: "HEALTH_API", server_name: "sense1" },
        fields: {
          error_count: { kind: "integer", value: 1 },
          error_category: { kind: "string", value: "http_5xx" },
          http_status: { kind: "integer", value: 503 },
        },
        timestampMs: clock.now(),
      },
    ]);
  });

  it("keeps two errors of one type and server in the same millisecond apart: the second point is 1 ns later", () => {
    const { points, errors, clock } = tracker();
    errors.record("LICENSE_API", "sense1");
    errors.record("LICENSE_API", "sense1");
    errors.record("LICENSE_API", "sense2");
    clock.advance(1);
    errors.record("LICENSE_API", "sense1");

    expect(points.map((point) => [point.tags.server_name, point.timestampMs, point.subMsNs])).toEqual([
      ["sense1", clock.now() - 1, undefined],
      ["sense1", clock.now() - 1, 1],
      ["sense2", clock.now() - 1, undefined],
      ["sense1", clock.now(), undefined],
    ]);
  });

  it("the null tracker records nothing", () => {
    nullErrorTracker.record("HEALTH_API", "x");
    expect(nullErrorTracker.counts().total).toBe(0);
  });

  it("stop() cancels the midnight timer", async () => {
    const { clock, logger, errors } = tracker(true);
    errors.record("PROXY_API", "s");
    await errors.stop();
    clock.advance(86_400_000);
    expect(summaries(logger)).toEqual([]);
  });
});

describe("error categories and types", () => {
  it.each([
    [Object.assign(new Error("x"), { code: "ETIMEDOUT" }), "timeout"],
    [new DOMException("The operation was aborted due to timeout", "TimeoutError"), "timeout"],
    [Object.assign(new Error("x"), { code: "ENOTFOUND" }), "host_not_found"],
    [Object.assign(new Error("x"), { code: "ECONNRESET" }), "connection_reset"],
    [Object.assign(new Error("x"), { status: 401 }), "auth_error"],
    [Object.assign(new Error("x"), { status: 404 }), "not_found"],
    [Object.assign(new Error("x"), { status: 429 }), "rate_limited"],
    [Object.assign(new Error("x"), { status: 400 }), "http_4xx"],
    [new Error("unable to verify the first certificate"), "certificate_error"],
    [new Error("something else"), "unknown"],
  ])("categorises %s as %s", (error, category) => {
    expect(categorizeError(error).category).toBe(category);
  });

  it("names destination write failures with Butler SOS's error types", () => {
    expect(writeErrorType("timeseriesdb", 1)).toBe("INFLUXDB_V1_WRITE");
    expect(writeErrorType("timeseriesdb", 3)).toBe("INFLUXDB_V3_WRITE");
    expect(writeErrorType("mqtt", 1)).toBe("MQTT_PUBLISH");
    expect(writeErrorType("obs-platform:acct", 1)).toBe("NEW_RELIC_POST");
    expect(writeErrorType("obs-platform-metrics:acct", 1)).toBe("NEW_RELIC_POST");
  });
});
