/**
 * `steward simulate-platform --task-events HOST:PORT` as an operator tries it: the simulated
 * platform sends reload-task datagrams to the port and writes a configuration that switches task
 * events on, and a `steward start` with that configuration receives the events, finds every run in
 * the simulated repository and alerts the failed and aborted ones to the simulator's webhook
 * catcher, which logs each call.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { onFreePorts, startSimulatorForTest } from "../../helpers/simulator-for-test.ts";
import { spawnStewardForTest } from "../../helpers/started-steward.ts";
import { taskEventCount } from "../../helpers/task-events-steward.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "steward-simulate-tasks-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("simulate-platform --task-events", () => {
  it("sends reload-task datagrams that a steward start with the written configuration receives, finds in the repository and alerts to the catcher", async () => {
    // Prepare
    const udpPort = await freePort();
    const { sim, config } = await startSimulatorForTest(
      ["--port", "0", "--generate-certs", "--certs", "certs", "--task-events", `127.0.0.1:${udpPort}`],
      dir,
    );
    const { scrapePort } = await onFreePorts(config);
    writeFileSync(join(dir, "steward.yaml"), stringify(config));

    // Act
    const steward = spawnStewardForTest(["start", "--config", "steward.yaml"], { cwd: dir });
    await steward.waitFor(/steward ready/, 30_000);
    // One datagram every five seconds, in turn: an aborted and a successful run come within 15 s.
    const processed = async (kind: string) => taskEventCount(scrapePort, kind, "processed");
    await until(
      async () => (await processed("aborted")) >= 1 && (await processed("success")) >= 1,
      20_000,
      200,
    );

    // The first failed run comes within 15 s too, and its alert reaches the catcher.
    await sim.waitFor(
      /webhook call caught method=POST path=\/reload-task-failure event="Qlik Sense reload failed"/,
      20_000,
    );

    // Assess
    expect(config.Service.taskEvents.udpServerConfig).toEqual({
      serverHost: "127.0.0.1",
      portTaskEvents: udpPort,
    });
    expect(await taskEventCount(scrapePort, "aborted", "enrichment_failed")).toBe(0);
    expect(await taskEventCount(scrapePort, "success", "enrichment_failed")).toBe(0);
    expect(sim.output()).toMatch(
      /webhook call caught method=POST path=\/reload-task-aborted event="Qlik Sense reload aborted" taskName="Reload Sales" appName="Sales dashboard" executionId=[0-9a-f-]{36} fields=15/,
    );
    expect(steward.output()).toMatch(/reload task failed: Reload Sales .*alerts="webhook sent"/);
    steward.child.kill("SIGTERM");
    sim.child.kill("SIGINT");
    expect((await steward.exited()).code).toBe(0);
    expect((await sim.exited()).code).toBe(0);
  }, 60_000);
});
