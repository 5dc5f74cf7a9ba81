/**
 * The key that scrambles user identities is read, or made and kept under `./data/`, only when
 * user events are actually sent to the observability platform: the pipeline's own switch and the
 * platform's master switch both on. With the master switch off nothing is sent, so no key file is
 * made (a data directory that cannot be written must not stop the UDP listeners for it).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { startAgentConnections } from "../../../../local/agent/agent-connections.ts";
import { SCRAMBLE_KEY_FILE, startUdpEvents } from "../../../../local/agent/udp-events.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** Starts the user-event listener in a fresh directory and says whether the key file exists then. */
async function keyFileAfterStart(obsPlatform: Record<string, unknown>): Promise<boolean> {
  const dir = scratchDirectory("steward-scramble-");
  const parsed = parseConfig({
    Service: {
      userEvents: {
        enable: true,
        udpServerConfig: { serverHost: "127.0.0.1", portUserActivityEvents: await freePort() },
        sendToObsPlatform: { enable: true, destinationAccount: ["prod"], scramble: true },
      },
      obsPlatform,
      thirdPartyToolsCredentials: {
        obsPlatform: [{ accountName: "prod", insertApiKey: "key", accountId: 1 }],
      },
    },
  });
  if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  const logger = recordingLogger();
  const metrics = createPromMetricsRegistry();
  const connections = await startAgentConnections({ config: parsed.config, logger, metrics, cwd: dir });
  const udp = await startUdpEvents({
    config: parsed.config,
    logger,
    clock: systemClock,
    cwd: dir,
    metrics,
    appNames: createMemoryAppNameCache(),
    connections,
  });
  try {
    return existsSync(join(dir, SCRAMBLE_KEY_FILE));
  } finally {
    await udp.stop();
    await connections.stop();
  }
}

describe("the user-event scramble key", () => {
  it("is not made when the observability platform's master switch is off", async () => {
    expect(await keyFileAfterStart({ enable: false })).toBe(false);
  });

  it("is made when user events go to the observability platform", async () => {
    expect(await keyFileAfterStart({ enable: true })).toBe(true);
  });
});
