/**
 * `steward simulate-platform --task-events HOST:PORT` as an operator tries it: the simulated
 * platform sends reload-task datagrams to the port, prints the lines that switch task events on,
 * and a `steward start` with the printed configuration and those lines receives the events and
 * finds every run in the simulated repository.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { spawnStewardForTest } from "../../helpers/started-steward.ts";
import { taskEventCount } from "../../helpers/task-events-steward.ts";

const READY = /Stop the simulated platform with Ctrl-C\./;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "steward-simulate-tasks-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A printed block: from the line that starts with `heading` to the first empty line. */
function printedBlock(output: string, heading: string): string {
  const match = new RegExp(`^${heading}[\\s\\S]*?\\n(?=\\n)`, "m").exec(output);
  if (match === null) throw new Error(`no "${heading}" block in the output:\n${output}`);
  return match[0];
}

describe("simulate-platform --task-events", () => {
  it("sends reload-task datagrams that a steward start with the printed lines receives and finds in the repository", async () => {
    // Prepare
    const udpPort = await freePort();
    const scrapePort = await freePort();
    const sim = spawnStewardForTest(
      [
        "simulate-platform",
        "--port",
        "0",
        "--generate-certs",
        "--certs",
        "certs",
        "--task-events",
        `127.0.0.1:${udpPort}`,
      ],
      { cwd: dir },
    );
    await sim.waitFor(READY, 30_000);
    const config = parse(printedBlock(sim.output(), "# Steward polling the simulated platform"));
    const lines = printedBlock(sim.output(), "# Reload-task datagrams").replace(/^ {2}/gm, "");
    Object.assign(config.Service, parse(lines), {
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: scrapePort },
      auditEvents: { enable: false },
      restServer: { enable: false },
    });
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

    // Assess
    expect(await taskEventCount(scrapePort, "aborted", "enrichment_failed")).toBe(0);
    expect(await taskEventCount(scrapePort, "success", "enrichment_failed")).toBe(0);
    steward.child.kill("SIGTERM");
    sim.child.kill("SIGINT");
    expect((await steward.exited()).code).toBe(0);
    expect((await sim.exited()).code).toBe(0);
  }, 60_000);
});
