/**
 * `steward start` as a test's child process: started in a working directory that holds its
 * `steward.yaml`, killed when the test finishes, and (startStewardIn) awaited until it says it is
 * ready. Kept apart from steward-process.ts, which the benchmarks (plain node, no test runner)
 * use too.
 */
import { onTestFinished } from "vitest";
import { type StewardProcess, spawnSteward } from "./steward-process.ts";

export interface StartOptions {
  /** The test's own hook; tests that run concurrently must pass their context's. */
  onTestFinished?: (hook: () => void) => void;
  /** How long Steward may take to say it is ready (30 s otherwise). */
  timeoutMs?: number;
}

/**
 * `steward start --config steward.yaml` in `cwd`, killed (SIGKILL) when the test finishes if it
 * is still running; for tests of a start that fails. Call it inside a test.
 */
export function spawnStewardIn(cwd: string, options: StartOptions = {}): StewardProcess {
  const proc = spawnSteward(["start", "--config", "steward.yaml"], { cwd });
  (options.onTestFinished ?? onTestFinished)(() => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  });
  return proc;
}

/** spawnStewardIn, resolved once Steward logs that it is ready. */
export async function startStewardIn(cwd: string, options: StartOptions = {}): Promise<StewardProcess> {
  const proc = spawnStewardIn(cwd, options);
  await proc.waitFor(/steward ready/, options.timeoutMs ?? 30_000);
  return proc;
}
