/** The heartbeat against a capture HTTP server on loopback: at start, on schedule, failures counted. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHeartbeat } from "../../../../local/agent/heartbeat.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { until } from "../../../helpers/eventually.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let capture: CaptureServer;
beforeEach(async () => {
  capture = await startCaptureServer();
});
afterEach(async () => {
  await capture.stop();
});

describe("heartbeat", () => {
  it("GETs remoteURL at start and on every occurrence of the schedule", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    capture.respondWith(200);
    const heartbeat = startHeartbeat({
      remoteURL: `${capture.url}/ping?from=steward`,
      frequency: "every 1 minute",
      clock,
      logger: recordingLogger(),
    });
    await until(() => capture.requests.length === 1);
    expect(capture.requests[0]).toMatchObject({ method: "GET", path: "/ping?from=steward", body: "" });

    await clock.advance(49_999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(capture.requests).toHaveLength(1);
    await clock.advance(1);
    await until(() => capture.requests.length === 2);
    await until(() => heartbeat.stats().sent === 2);
    await heartbeat.stop();
  });

  it("accepts a cron schedule", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    capture.respondWith(204);
    const heartbeat = startHeartbeat({
      remoteURL: capture.url,
      frequency: "*/5 * * * *",
      clock,
      logger: recordingLogger(),
    });
    await until(() => capture.requests.length === 1);
    await clock.advance(290_000);
    await until(() => capture.requests.length === 2);
    await heartbeat.stop();
  });

  it("logs a failing or unanswered call at WARN and counts it, and goes on beating", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    const logger = recordingLogger();
    const metrics = createMemoryMetricsRegistry();
    capture.respondWith(500);
    const heartbeat = startHeartbeat({
      remoteURL: capture.url,
      frequency: "every 1 minute",
      clock,
      logger,
      metrics,
      timeoutMs: 200,
    });
    await until(() => heartbeat.stats().failed === 1);
    expect(logger.at("warn")[0]).toMatchObject({ message: "heartbeat failed; the next one tries again" });
    expect(String(logger.at("warn")[0]?.fields?.error)).toContain("500");

    capture.respondWith("no answer");
    await clock.advance(50_000);
    await until(() => heartbeat.stats().failed === 2, 3000);
    expect(String(logger.at("warn")[1]?.fields?.error)).toMatch(/timeout|aborted/i);

    capture.respondWith(200);
    await clock.advance(60_000);
    await until(() => heartbeat.stats().sent === 1);
    const counter = metrics.scrape().find((metric) => metric.name === "steward_heartbeats_total");
    expect(counter?.samples).toEqual([
      { labels: { outcome: "sent" }, value: 1 },
      { labels: { outcome: "failed" }, value: 2 },
    ]);
    await heartbeat.stop();
  });

  it("logs the URL as its origin with the path masked, in its start, success and failure lines alike", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    const logger = recordingLogger();
    capture.respondWith(500);
    const heartbeat = startHeartbeat({
      remoteURL: `${capture.url}/ping/8f14e45f-secret-check-id?key=k3y`,
      frequency: "every 1 minute",
      clock,
      logger,
      timeoutMs: 1000,
    });
    await until(() => heartbeat.stats().failed === 1);
    capture.respondWith(200);
    await clock.advance(50_000);
    await until(() => heartbeat.stats().sent === 1);
    await heartbeat.stop();

    expect(capture.requests[0]?.path).toBe("/ping/8f14e45f-secret-check-id?key=k3y");
    const lines = JSON.stringify(logger.entries);
    expect(lines).not.toContain("8f14e45f");
    expect(lines).not.toContain("k3y");
    const urls = logger.entries.map((entry) => entry.fields?.url);
    expect(new Set(urls)).toEqual(new Set([`${capture.url}/**********/**********?key=**********`]));
    expect(logger.entries.map((entry) => entry.message)).toEqual([
      "sending heartbeats",
      "heartbeat failed; the next one tries again",
      "heartbeat works again",
      "heartbeat sent",
    ]);
  });

  it("masks the URL inside fetch's own error", async () => {
    const clock = createAsyncManualClock(Date.parse("2026-01-01T00:00:10Z"));
    const logger = recordingLogger();
    const remoteURL = `${capture.url.replace("://", "://hbuser:hbpass@")}/ping/8f14e45f-secret-check-id`;
    const heartbeat = startHeartbeat({ remoteURL, frequency: "every 1 minute", clock, logger });
    await until(() => heartbeat.stats().failed === 1);
    await heartbeat.stop();

    expect(heartbeat.stats().lastError).toContain("credentials");
    expect(JSON.stringify(logger.entries)).not.toMatch(/hbpass|8f14e45f/);
  });
});
