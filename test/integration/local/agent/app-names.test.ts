/**
 * The app-name poller against the simulated platform over mutual TLS (real certificates from
 * pki.ts), with the client built as the agent builds it: `openPlatformClient` on the app-name
 * host, certificate paths relative to the working directory. Real time, short intervals.
 */
import { basename } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMemoryAppNameCache } from "../../../../core/adapters/local/memory-app-name-cache.ts";
import type { ClosablePlatformClient } from "../../../../core/adapters/platform/platform-client.ts";
import { defaultConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { type AppNames, type AppNamesDeps, startAppNames } from "../../../../local/agent/app-names.ts";
import { openPlatformClient } from "../../../../local/open-platform-client.ts";
import { APP_BROKEN, APP_SALES } from "../../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { eventually } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let sim: TestPlatform;
const running: { poller: AppNames; client: ClosablePlatformClient }[] = [];

beforeAll(async () => {
  sim = await startTestPlatform();
});
beforeEach(() => sim.reset());
afterEach(async () => {
  for (const { poller, client } of running.splice(0)) {
    await poller.stop();
    client.close();
  }
});
afterAll(async () => {
  await sim?.stop();
});

/** The agent's client: `platform.host` points nowhere, so only `appNames.hostIP` can reach the platform. */
async function openClient(timeoutMs = 2000): Promise<ClosablePlatformClient> {
  const base = defaultConfig();
  const config = {
    platform: { ...sim.connection({ timeoutMs }), host: "platform.invalid" },
    cert: {
      ...base.cert,
      clientCert: basename(sim.pki.clientCertPath),
      clientCertKey: basename(sim.pki.clientKeyPath),
      clientCertCA: basename(sim.pki.caPath),
    },
  };
  return openPlatformClient(config, "localhost", {
    logger: recordingLogger(),
    clock: systemClock,
    cwd: sim.pki.dir,
  });
}

async function startPoller(extra: Partial<AppNamesDeps> = {}, timeoutMs?: number) {
  const client = await openClient(timeoutMs);
  const cache = createMemoryAppNameCache();
  const logger = recordingLogger();
  const poller = await startAppNames({
    listing: client,
    cache,
    intervalMs: 150,
    server: "localhost",
    clock: systemClock,
    logger,
    ...extra,
  });
  running.push({ poller, client });
  return { poller, cache, logger };
}

describe("app names from the simulated repository", () => {
  it("fills the cache during start over mutual TLS, with the user header and the certificate from the working directory", async () => {
    // Act
    const { cache } = await startPoller({ intervalMs: 60_000 });

    // Assess
    expect([cache.nameOf(APP_SALES), cache.nameOf(APP_BROKEN)]).toEqual(["Sales dashboard", "Broken script"]);
    expect(sim.repository.calls).toEqual([
      {
        method: "GET",
        path: "/qrs/app",
        query: { xrfkey: expect.stringMatching(/^[A-Za-z0-9]{16}$/) },
        user: "UserDirectory=Internal;UserId=sa_repository",
        clientCertCn: "QlikClient",
      },
    ]);
  });

  it("takes a renamed app on the next interval and stores upper-case ids lower-case", async () => {
    // Prepare
    const { cache } = await startPoller();

    // Act
    sim.repository.apps = [{ id: APP_SALES.toUpperCase(), name: "Sales (Q3)", reloadSucceeds: true }];

    // Assess
    expect(await eventually(() => cache.nameOf(APP_SALES) === "Sales (Q3)", 3000)).toBe(true);
    expect(cache.nameOf(APP_BROKEN)).toBeUndefined();
  });

  it.each(["status500", "malformedJson", "objectBody", "entryWithoutId", "closeSocket"] as const)(
    "keeps the previous names when the repository answers %s, and logs why",
    async (fault) => {
      // Prepare
      const { poller, cache, logger } = await startPoller();
      expect(cache.size).toBe(2);

      // Act
      sim.repository.fault = fault;
      sim.repository.apps = [];

      // Assess
      expect(await eventually(() => poller.stats().failed >= 2, 3000)).toBe(true);
      expect([cache.nameOf(APP_SALES), cache.nameOf(APP_BROKEN)]).toEqual([
        "Sales dashboard",
        "Broken script",
      ]);
      const warnings = logger.at("warn");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.fields).toMatchObject({
        errorType: "APP_NAMES_EXTRACT",
        error: expect.stringMatching(/^Platform\w*Error: /),
      });
    },
  );

  it("starts while the repository refuses, and fills the cache once it answers", async () => {
    // Prepare
    sim.repository.fault = "closeSocket";

    // Act
    const { poller, cache, logger } = await startPoller();

    // Assess
    expect(cache.size).toBe(0);
    expect(logger.at("warn")[0]?.fields?.error).toMatch(/PlatformConnectionClosedError/);
    sim.repository.fault = undefined;
    expect(await eventually(() => cache.nameOf(APP_SALES) === "Sales dashboard", 3000)).toBe(true);
    expect(poller.stats().succeeded).toBeGreaterThanOrEqual(1);
  });

  it("does not hold start-up or shutdown for a repository that never answers", async () => {
    // Prepare
    sim.repository.fault = "hang";
    const began = Date.now();

    // Act
    const { poller, cache } = await startPoller({ startWaitMs: 300, stopWaitMs: 300 }, 10_000);
    const startedAfter = Date.now() - began;
    const stopping = Date.now();
    await poller.stop();
    const stoppedAfter = Date.now() - stopping;

    // Assess
    expect(startedAfter).toBeLessThan(1500);
    expect(stoppedAfter).toBeLessThan(1000);
    expect(cache.size).toBe(0);
  });
});
