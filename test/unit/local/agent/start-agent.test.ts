/**
 * How the agent's parts are started from their list: only the enabled ones, in list order, the
 * shared connections before the first part that writes through them (before every part with error
 * tracking on), all of it stopped in reverse.
 */
import { describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { type Config, defaultConfig } from "../../../../core/config/index.ts";
import { nullErrorTracker } from "../../../../core/monitoring/error-tracker.ts";
import { declareHttpRefusedMetric } from "../../../../core/monitoring/http-refused-metric.ts";
import { createStatusBoard } from "../../../../core/monitoring/status-board.ts";
import { declareRateLimitedMetric } from "../../../../core/ratelimit/rate-limited-metric.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { noAlerts } from "../../../../functions/alerts/alerts-part.ts";
import type { AgentPart } from "../../../../local/agent/agent-part.ts";
import { startAgentParts } from "../../../../local/agent/start-agent.ts";
import { startInOrder } from "../../../../local/start-in-order.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** Parts that record their start and stop in `events`; a writing one records what connections it got. */
function recordingParts(events: string[]): AgentPart[] {
  const stopper = (name: string) => ({ stop: async () => void events.push(`stop ${name}`) });
  return [
    {
      name: "plain",
      enabled: () => true,
      start: async () => {
        events.push("start plain");
        return stopper("plain");
      },
    },
    {
      name: "switched-off",
      enabled: () => false,
      start: async () => {
        events.push("start switched-off");
        return stopper("switched-off");
      },
    },
    {
      name: "writer",
      enabled: () => true,
      writes: true,
      start: async ({ connections }) => {
        events.push(`start writer (errors tracked: ${connections.errors !== nullErrorTracker})`);
        return stopper("writer");
      },
    },
  ];
}

async function startParts(config: Config, list: readonly AgentPart[]) {
  const status = createStatusBoard({ version: "test", clock: systemClock });
  const metrics = createPromMetricsRegistry();
  const running = await startInOrder(recordingLogger(), (parts) =>
    startAgentParts(parts, list, {
      config,
      logger: recordingLogger(),
      clock: systemClock,
      cwd: scratchDirectory("steward-agent-parts-"),
      metrics,
      rateLimited: declareRateLimitedMetric(metrics),
      httpRefused: declareHttpRefusedMetric(metrics),
      appNames: createMemoryAppNameCache(),
      status,
      healthProbes: [],
      configTree: {},
      logLevelOverride: undefined,
      alerts: noAlerts(systemClock, recordingLogger()),
      broker: undefined,
    }),
  );
  return { running, status };
}

describe("startAgentParts", () => {
  it("starts the enabled parts in list order, the shared connections just before the first that writes", async () => {
    const events: string[] = [];

    const { running } = await startParts(defaultConfig(), recordingParts(events));
    await running.stop();

    expect(running.names).toEqual(["plain", "agent-connections", "writer"]);
    expect(events).toEqual([
      "start plain",
      "start writer (errors tracked: false)",
      "stop writer",
      "stop plain",
    ]);
  });

  it("starts no shared connections when no enabled part writes and error tracking is off", async () => {
    const events: string[] = [];
    const plainOnly = recordingParts(events).filter((part) => !part.writes);

    const { running } = await startParts(defaultConfig(), plainOnly);
    await running.stop();

    expect(running.names).toEqual(["plain"]);
  });

  it("starts the shared connections first with error tracking on, and the status page shows their counts", async () => {
    const events: string[] = [];
    const base = defaultConfig();
    const config = { ...base, errorTracking: { ...base.errorTracking, enable: true } };

    const { running, status } = await startParts(config, recordingParts(events));
    const errors = status.document().errors;
    await running.stop();

    expect(running.names).toEqual(["agent-connections", "plain", "writer"]);
    expect(events).toContain("start writer (errors tracked: true)");
    expect(errors).not.toBeNull();
  });
});
