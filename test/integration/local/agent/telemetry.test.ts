/**
 * Anonymous telemetry against a capture server: opt-in, POSTed at start without holding it up,
 * anonymous content, a random instance id kept under ./data/, offline-safe.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InstanceIdFileError,
  loadOrCreateInstanceId,
} from "../../../../core/adapters/local/instance-id-file.ts";
import { type Config, defaultConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { SERVICE_VERSION } from "../../../../core/version.ts";
import { INSTANCE_ID_FILE, startTelemetry } from "../../../../local/agent/telemetry.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { until } from "../../../helpers/eventually.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let capture: CaptureServer;
beforeEach(async () => {
  capture = await startCaptureServer();
});
afterEach(async () => {
  await capture.stop();
});

const telemetryConfig = (endpoint: string): Config => ({
  ...defaultConfig(),
  anonTelemetry: true,
  anonTelemetryEndpoint: endpoint,
  heartbeat: { ...defaultConfig().heartbeat, enable: true, remoteURL: "http://secret-host.example.com/hb" },
});

const freshDir = () => scratchDirectory("steward-telemetry-");

describe("anonymous telemetry", () => {
  it("POSTs the version, platform, enabled features and instance id at start, and nothing identifying", async () => {
    const cwd = freshDir();
    capture.respondWith(200);
    const telemetry = await startTelemetry({
      config: telemetryConfig(`${capture.url}/telemetry`),
      cwd,
      clock: systemClock,
      logger: recordingLogger(),
    });
    await until(() => capture.requests.length === 1);
    await telemetry.stop();

    const [request] = capture.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/telemetry");
    expect(request?.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request?.body ?? "{}");
    expect(body).toMatchObject({
      service: "steward",
      version: SERVICE_VERSION,
      instanceId: telemetry.instanceId,
      platform: process.platform,
      arch: process.arch,
      nodeVersion: process.versions.node,
    });
    expect(body.features).toMatchObject({ heartbeat: true, auditEvents: true, uptimeMonitor: false });
    expect(Object.values(body.features).every((v) => typeof v === "boolean")).toBe(true);
    expect(request?.body).not.toContain("secret-host");
    expect(readFileSync(join(cwd, INSTANCE_ID_FILE), "utf8").trim()).toBe(telemetry.instanceId);
  });

  it("keeps the instance id across restarts; another data directory gets another id", async () => {
    const cwd = freshDir();
    const first = await loadOrCreateInstanceId(join(cwd, INSTANCE_ID_FILE));
    const again = await loadOrCreateInstanceId(join(cwd, INSTANCE_ID_FILE));
    const other = await loadOrCreateInstanceId(join(freshDir(), INSTANCE_ID_FILE));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it("refuses an instance id file that holds something else, without overwriting it", async () => {
    const cwd = freshDir();
    await mkdir(join(cwd, "data"));
    writeFileSync(join(cwd, INSTANCE_ID_FILE), "not an id\n");
    await expect(loadOrCreateInstanceId(join(cwd, INSTANCE_ID_FILE))).rejects.toBeInstanceOf(
      InstanceIdFileError,
    );
    expect(readFileSync(join(cwd, INSTANCE_ID_FILE), "utf8")).toBe("not an id\n");
  });

  it("never holds up start-up when the endpoint does not answer", async () => {
    capture.respondWith("no answer");
    const started = Date.now();
    const telemetry = await startTelemetry({
      config: telemetryConfig(capture.url),
      cwd: freshDir(),
      clock: systemClock,
      logger: recordingLogger(),
      intervalMs: 200,
    });
    expect(Date.now() - started).toBeLessThan(500);
    await until(() => capture.requests.length >= 1);
    expect(telemetry.sent()).toBe(0);
    capture.respondWith(204);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await telemetry.stop();
  });

  it("posts every period once the endpoint answers", async () => {
    capture.respondWith(204);
    const telemetry = await startTelemetry({
      config: telemetryConfig(capture.url),
      cwd: freshDir(),
      clock: systemClock,
      logger: recordingLogger(),
      intervalMs: 150,
    });
    await until(() => telemetry.sent() >= 3, 3000);
    await telemetry.stop();
  });
  it("logs the endpoint with the token in its query or path masked", async () => {
    const cwd = freshDir();
    const logger = recordingLogger();
    capture.respondWith(200);
    const telemetry = await startTelemetry({
      config: telemetryConfig(`${capture.url}/collect/Tk9f2a7b3c?key=k3y-secret`),
      cwd,
      clock: systemClock,
      logger,
    });
    await until(() => capture.requests.length === 1);
    await telemetry.stop();

    expect(capture.requests[0]?.path).toBe("/collect/Tk9f2a7b3c?key=k3y-secret");
    expect(
      logger.entries.find((entry) => entry.message === "anonymous telemetry is on")?.fields?.endpoint,
    ).toBe(`${capture.url}/collect/**********?key=**********`);
    expect(JSON.stringify(logger.entries)).not.toMatch(/Tk9f2a7b3c|k3y-secret/);
  });
});
