/**
 * Runs the real `steward` command (bin/steward.js) as a child process, for tests of the CLI,
 * start-up, signals and exit codes, with Steward's node options (bin/node-flags.mjs) as its first
 * line gives them; `nodeArgs` come after them. `asProgram` runs the file itself, as `npx steward`
 * and a shell do, so that its first line starts node (`node` is looked up on PATH, this process's
 * first).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { delimiter, dirname, join } from "node:path";
import { NODE_FLAGS } from "../../bin/node-flags.mjs";

const BIN = join(import.meta.dirname, "..", "..", "bin", "steward.js");

export interface StewardProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in stdout+stderr, rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

export function spawnSteward(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; nodeArgs?: readonly string[]; asProgram?: boolean },
): StewardProcess {
  const env = { ...process.env, ...options.env };
  const child = options.asProgram
    ? spawn(BIN, args, {
        cwd: options.cwd,
        env: { ...env, PATH: `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}` },
        stdio: ["ignore", "pipe", "pipe"],
      })
    : spawn(process.execPath, [...NODE_FLAGS, ...(options.nodeArgs ?? []), BIN, ...args], {
        cwd: options.cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );

  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match === null) return;
          cleanup();
          resolve(match);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`));
        }, timeoutMs);
        const onExit = () => {
          check();
          cleanup();
          reject(new Error(`process exited before ${pattern}; output:\n${output}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off("exit", onExit);
        };
        listeners.add(check);
        child.once("exit", onExit);
        check();
      });
    },
    async exited(timeoutMs = 15_000) {
      const started = Date.now();
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`process did not exit within ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        ).unref(),
      );
      const { code, signal, at } = await Promise.race([exit, timeout]);
      return { code, signal, ms: at - started };
    },
  };
}

/** Runs a one-shot command to completion. */
export async function runSteward(args: string[], cwd: string, env?: NodeJS.ProcessEnv) {
  const proc = spawnSteward(args, { cwd, ...(env === undefined ? {} : { env }) });
  const { code } = await proc.exited(30_000);
  return { code, output: proc.output() };
}
