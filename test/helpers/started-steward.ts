/**
 * The `steward` command as a test's child process, killed when the test finishes:
 * spawnStewardForTest for any command, spawnStewardIn for `steward start` in a working directory
 * that holds its `steward.yaml`, and startStewardIn for that start awaited until Steward says it
 * is ready. Kept apart from steward-process.ts, which the benchmarks (plain node, no test runner)
 * use too.
 */
import { onTestFinished } from "vitest";
import { type StewardProcess, spawnSteward } from "./steward-process.ts";

type SpawnOptions = Parameters<typeof spawnSteward>[1];

export interface ForTestOptions {
  /** The test's own hook; tests that run concurrently must pass their context's. */
  onTestFinished?: (hook: () => void) => void;
}

export interface StartOptions extends ForTestOptions, Omit<SpawnOptions, "cwd"> {
  /** More arguments after `start --config steward.yaml`. */
  args?: readonly string[];
  /** How long Steward may take to say it is ready (30 s otherwise). */
  timeoutMs?: number;
}

/**
 * `steward ARGS` (spawnSteward), killed (SIGKILL) when the test finishes if it is still running.
 * Call it inside a test.
 */
export function spawnStewardForTest(args: string[], options: SpawnOptions & ForTestOptions): StewardProcess {
  const { onTestFinished: hook = onTestFinished, ...spawnOptions } = options;
  const proc = spawnSteward(args, spawnOptions);
  hook(() => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  });
  return proc;
}

/** `steward start --config steward.yaml` in `cwd`, killed when the test finishes; for starts that fail. */
export function spawnStewardIn(cwd: string, options: StartOptions = {}): StewardProcess {
  const { args = [], timeoutMs: _timeoutMs, ...rest } = options;
  return spawnStewardForTest(["start", "--config", "steward.yaml", ...args], { cwd, ...rest });
}

/** spawnStewardIn, resolved once Steward logs that it is ready. */
export async function startStewardIn(cwd: string, options: StartOptions = {}): Promise<StewardProcess> {
  const proc = spawnStewardIn(cwd, options);
  await proc.waitFor(/steward ready/, options.timeoutMs ?? 30_000);
  return proc;
}
