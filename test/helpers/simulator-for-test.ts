/**
 * `steward simulate-platform` as the tests that point `steward start` at it run it: with
 * `--write-config`, so that the configuration it wrote is read from its file once the simulator
 * says it runs (its standard output and standard error reach the test through two pipes, in no
 * promised order), and with Steward's own listeners moved to free ports or switched off, so that
 * such tests run side by side.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { freePort } from "./free-port.ts";
import { spawnStewardForTest } from "./started-steward.ts";
import type { StewardProcess } from "./steward-process.ts";

/** What simulate-platform says on standard error once everything runs and the configuration is written. */
export const SIMULATOR_READY = /Stop the simulated platform with Ctrl-C\./;

/** The configuration as a YAML tree (untyped, as the YAML library parses it) that a test may change. */
export type SimulatedConfig = ReturnType<typeof parse>;

/** The file simulate-platform writes its configuration to, in the working directory. */
export const SIMULATED_CONFIG_FILE = "simulated.yaml";

/** Runs `simulate-platform ARGS --write-config simulated.yaml` in `cwd` until ready; answers it and the configuration. */
export async function startSimulatorForTest(
  args: readonly string[],
  cwd: string,
): Promise<{ sim: StewardProcess; config: SimulatedConfig }> {
  const sim = spawnStewardForTest(["simulate-platform", ...args, "--write-config", SIMULATED_CONFIG_FILE], {
    cwd,
  });
  await sim.waitFor(SIMULATOR_READY, 30_000);
  const config: SimulatedConfig = parse(readFileSync(join(cwd, SIMULATED_CONFIG_FILE), "utf8"));
  return { sim, config };
}

/**
 * Moves the scrape endpoint and the status page to free ports and switches the audit ingest API
 * and the REST API off (they would take their default ports); answers the two ports.
 */
export async function onFreePorts(config: SimulatedConfig): Promise<{ scrapePort: number; uiPort: number }> {
  const scrapePort = await freePort();
  const uiPort = await freePort();
  config.Service.scrapeEndpoint.port = scrapePort;
  config.Service.configVisualisation.port = uiPort;
  config.Service.auditEvents = { enable: false };
  config.Service.restServer = { enable: false };
  return { scrapePort, uiPort };
}
