/**
 * The platform monitor as the agent opens it: `cert.*` paths from the working directory, a
 * certificate that cannot be read at start is a start-up error, and certificate files changed
 * on disk are taken by the next calls without reopening.
 */
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../../core/config/index.ts";
import { PlatformCertificateError, PlatformError } from "../../../core/platform/errors.ts";
import type { PlatformMonitor } from "../../../core/ports.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { openPlatformMonitor } from "../../../local/open-platform-client.ts";
import type { SimulatedServer } from "../../../local/simulated-platform/simulated-server.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { until } from "../../helpers/eventually.ts";
import { type RecordingLogger, recordingLogger } from "../../helpers/recording-logger.ts";

let sim: TestPlatform;
let server: SimulatedServer;
let cwd: string;
let logger: RecordingLogger;
const opened: PlatformMonitor[] = [];

const config = () => ({
  serversToMonitor: { ...defaultConfig().serversToMonitor, rejectUnauthorized: true },
  cert: {
    clientCert: "client.pem",
    clientCertKey: "client_key.pem",
    clientCertCA: "root.pem",
    clientCertPassphrase: "",
  },
});

async function open(): Promise<PlatformMonitor> {
  const monitor = await openPlatformMonitor(config(), { logger, clock: systemClock, cwd, timeoutMs: 2000 });
  opened.push(monitor);
  return monitor;
}

async function place(cert: string, key: string): Promise<void> {
  await copyFile(cert, join(cwd, "client.pem"));
  await copyFile(key, join(cwd, "client_key.pem"));
}

beforeAll(async () => {
  sim = await startTestPlatform();
  server = sim.servers[0] as SimulatedServer;
});

afterAll(async () => {
  await sim?.stop();
});

beforeEach(async () => {
  logger = recordingLogger();
  cwd = await mkdtemp(join(tmpdir(), "steward-monitor-"));
  await copyFile(sim.pki.caPath, join(cwd, "root.pem"));
});

afterEach(async () => {
  for (const monitor of opened.splice(0)) monitor.close();
  await rm(cwd, { recursive: true, force: true });
});

describe("openPlatformMonitor", () => {
  it("reads the certificate files relative to the working directory and calls over mutual TLS", async () => {
    // Prepare
    await place(sim.pki.clientCertPath, sim.pki.clientKeyPath);

    // Act
    const health = await (await open()).engineHealth({ host: server.address, headers: {} });

    // Assess
    expect(typeof health.cpu.total).toBe("number");
  });

  it("fails to open with PlatformCertificateError when a file cannot be read", async () => {
    // Act
    const failure = await open().catch((error) => error);

    // Assess
    expect(failure).toBeInstanceOf(PlatformCertificateError);
    expect(failure.message).toContain(join(cwd, "client.pem"));
  });

  it("takes certificate files overwritten on disk on a later call, without reopening", async () => {
    // Prepare: the stranger's certificate, which the platform does not trust.
    await place(sim.pki.strangerCertPath, sim.pki.strangerKeyPath);
    const monitor = await open();
    await expect(monitor.engineHealth({ host: server.address, headers: {} })).rejects.toThrow(PlatformError);

    // Act
    await place(sim.pki.clientCertPath, sim.pki.clientKeyPath);

    // Assess: the files are checked at most once a second.
    const started = Date.now();
    await until(
      () =>
        monitor.engineHealth({ host: server.address, headers: {} }).then(
          () => true,
          () => false,
        ),
      3000,
      100,
    );
    expect(Date.now() - started).toBeLessThan(2500);
    expect(server.calls.at(-1)?.clientCertCn).toBe("QlikClient");
    expect(logger.at("info").map((entry) => entry.message)).toContain(
      "platform certificate files changed on disk; using the new certificate",
    );
  });

  it("keeps the previous certificate when changed files cannot be used, and warns once", async () => {
    // Prepare
    await place(sim.pki.clientCertPath, sim.pki.clientKeyPath);
    const monitor = await open();
    await monitor.engineHealth({ host: server.address, headers: {} });

    // Act: a half-written key.
    await writeFile(join(cwd, "client_key.pem"), "-----BEGIN PRIVATE KEY-----\nMIGH");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => monitor.engineHealth({ host: server.address, headers: {} })),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await monitor.engineHealth({ host: server.address, headers: {} });

    // Assess
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    const warnings = logger.at("warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toBe(
      "platform certificate files changed but cannot be used; keeping the previous certificate",
    );
    expect(JSON.stringify(warnings)).not.toMatch(/BEGIN|MIGH/);
  });
});
