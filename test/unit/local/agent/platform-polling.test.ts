import { describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import type { MqttBrokerClient } from "../../../../core/adapters/mqtt.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { nullErrorTracker } from "../../../../core/monitoring/error-tracker.ts";
import type { PlatformMonitor } from "../../../../core/ports.ts";
import { startPlatformPolling } from "../../../../local/agent/platform-polling.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { HEALTH } from "../../core/polling/polling-fixtures.ts";

/** A broker connection whose publishes wait until released, counting how many wait at once. */
function holdingBrokerClient() {
  const waiting: (() => void)[] = [];
  let peak = 0;
  const brokerClient: MqttBrokerClient = {
    publish: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        peak = Math.max(peak, waiting.length);
      }),
    close: async () => undefined,
    whenConnected: async () => true,
    open: () => undefined,
    subscribe: () => ({ unsubscribe: () => undefined }),
  };
  return {
    brokerClient,
    peak: () => peak,
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe("startPlatformPolling", () => {
  it("publishes the broker messages of a health answer all at once, not a few per acknowledgement", async () => {
    // Prepare
    const parsed = parseConfig({
      Service: {
        mqttConfig: { enable: true, brokerHost: "127.0.0.1", baseTopic: "steward/" },
        serversToMonitor: {
          pollingInterval: 60_000,
          servers: [{ host: "sense1:4747", serverName: "sense1", serverDescription: "node 1" }],
        },
      },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const broker = holdingBrokerClient();
    const monitor: PlatformMonitor = {
      engineHealth: async () => HEALTH,
      proxySessions: async () => ({ sessions: [], raw: [] }),
      close: () => undefined,
    };

    // Act
    const polling = await startPlatformPolling({
      config: parsed.config,
      logger: recordingLogger(),
      clock: createManualClock(),
      cwd: ".",
      metrics: createMemoryMetricsRegistry(),
      appNames: createMemoryAppNameCache(),
      connections: {
        series: undefined,
        broker: broker.brokerClient,
        addStats: () => undefined,
        errors: nullErrorTracker,
        recordWriteError: () => undefined,
        stopWithinBudget: (_part, writer) => writer,
        addIntervalWriter: (_name, writer) => writer,
      },
      monitor,
    });
    await flush();
    const peak = broker.peak();
    broker.release();
    await flush();
    await polling.stop();

    // Assess: the health check of HEALTH is 22 messages (hit ratio included).
    expect(peak).toBe(22);
  });
});
