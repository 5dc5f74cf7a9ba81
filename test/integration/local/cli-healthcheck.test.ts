/**
 * `steward healthcheck [--config FILE]` against a real `steward start` child process: exit 0
 * while it runs, 1 once it has stopped; the command a container HEALTHCHECK runs.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startCaptureServer } from "../../helpers/capture-server.ts";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { runSteward } from "../../helpers/steward-process.ts";

const healthConfig = (
  restPort: number,
  auditPort: number,
  healthPort: number,
  heartbeatUrl: string,
) => `Service:
  logLevel: info
  auditEvents:
    port: ${auditPort}
  restServer:
    port: ${restPort}
  containerHealthCheck:
    enable: true
    port: ${healthPort}
  heartbeat:
    enable: true
    remoteURL: ${heartbeatUrl}/alive
    frequency: every 1 hour
  uptimeMonitor:
    enable: true
    frequency: every 1 second
    logLevel: info
  errorTracking:
    enable: true
`;

describe("steward healthcheck", () => {
  it("exits 0 against a running instance and 1 once it is stopped", async () => {
    const dir = scratchDirectory("steward-health-");
    const capture = await startCaptureServer();
    const [restPort, auditPort, healthPort] = [await freePort(), await freePort(), await freePort()];
    const config = join(dir, "steward.yaml");
    writeFileSync(config, healthConfig(restPort, auditPort, healthPort, capture.url));
    const proc = await startStewardIn(dir);
    // The other self-monitoring parts run in the same process: the heartbeat at start, the uptime line.
    await proc.waitFor(/Iteration # 1, Uptime: /);
    expect(capture.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /alive"]);
    await capture.stop();

    const healthy = await runSteward(["healthcheck", "--config", config], dir);
    expect(healthy.code).toBe(0);
    expect(healthy.output).toContain(
      `http://127.0.0.1:${healthPort}/health answered 200 {"statusCode":200,"status":"ok"}`,
    );

    proc.child.kill("SIGTERM");
    const { code, ms } = await proc.exited();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    const stopped = await runSteward(["healthcheck", "--config", config], dir);
    expect(stopped.code).toBe(1);
    expect(stopped.output).toContain("did not answer");
  }, 60_000);

  it("exits 1 with the reason when the configuration has no health check", async () => {
    const dir = scratchDirectory("steward-health-");
    const result = await runSteward(["healthcheck"], dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain("containerHealthCheck.enable is false");
  }, 30_000);
});
