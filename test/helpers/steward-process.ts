/**
 * Runs the real `steward` command (bin/steward.js) as a child process, for tests of the CLI,
 * start-up, signals and exit codes, with Steward's node options (bin/node-flags.mjs) as its first
 * line gives them; `nodeArgs` come after them. `asProgram` runs the file itself, as `npx steward`
 * and a shell do, so that its first line starts node (`node` is looked up on PATH, this process's
 * first). spawnCommand runs any other command the same way (an executable of `npm run package`,
 * or one under Wine), its output read from pipes or, where pipes cannot be used (Wine gives a
 * Windows program EBADF on a pipe), from a file it writes to.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { NODE_FLAGS } from "../../bin/node-flags.mjs";

const BIN = join(import.meta.dirname, "..", "..", "bin", "steward.js");
/** How often output written to a file is read again. */
const FILE_POLL_MS = 50;

export interface StewardProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in stdout+stderr, rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

export interface CommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Standard output and error both go to this file (created or emptied) instead of pipes. */
  outputFile?: string;
}

export function spawnSteward(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; nodeArgs?: readonly string[]; asProgram?: boolean },
): StewardProcess {
  const env = { ...process.env, ...options.env };
  return options.asProgram
    ? spawnCommand(BIN, args, {
        cwd: options.cwd,
        env: { ...env, PATH: `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}` },
      })
    : spawnCommand(process.execPath, [...NODE_FLAGS, ...(options.nodeArgs ?? []), BIN, ...args], {
        cwd: options.cwd,
        env,
      });
}

/** `command args` as a child process; `env` is added to this process's environment. */
export function spawnCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): StewardProcess {
  const env = { ...process.env, ...options.env };
  const file = options.outputFile;
  const descriptor = file === undefined ? undefined : openSync(file, "w");
  const child = spawn(command, args, {
    cwd: options.cwd,
    env,
    stdio: descriptor === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", descriptor, descriptor],
  });
  if (descriptor !== undefined) closeSync(descriptor);
  let output = "";
  const listeners = new Set<() => void>();
  const changed = (next: string) => {
    output = next;
    for (const listener of listeners) listener();
  };
  if (file === undefined) {
    const append = (chunk: Buffer) => changed(output + chunk.toString("utf8"));
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
  } else {
    const read = () => {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        // Removed with its folder when the test finished.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      if (text !== output) changed(text);
    };
    const poll = setInterval(read, FILE_POLL_MS);
    poll.unref();
    child.once("exit", () => {
      clearInterval(poll);
      read();
    });
  }
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return {
    child,
    output: () => output,
    waitFor: waiter(child, () => output, listeners),
    exited: exiter(exit, () => output),
  };
}

function waiter(
  child: ChildProcess,
  output: () => string,
  listeners: Set<() => void>,
): StewardProcess["waitFor"] {
  return (pattern, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const match = output().match(pattern);
        if (match === null) return;
        cleanup();
        resolve(match);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output()}`));
      }, timeoutMs);
      const onExit = () => {
        // Output written to a file is read once more at the exit: wait for that first.
        setImmediate(() => {
          check();
          cleanup();
          reject(new Error(`process exited before ${pattern}; output:\n${output()}`));
        });
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
}

function exiter(
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>,
  output: () => string,
): StewardProcess["exited"] {
  return async (timeoutMs = 15_000) => {
    const started = Date.now();
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`process did not exit within ${timeoutMs} ms:\n${output()}`)),
        timeoutMs,
      ).unref(),
    );
    const { code, signal, at } = await Promise.race([exit, timeout]);
    return { code, signal, ms: at - started };
  };
}

/** Runs a one-shot command to completion. */
export async function runSteward(args: string[], cwd: string, env?: NodeJS.ProcessEnv) {
  const proc = spawnSteward(args, { cwd, ...(env === undefined ? {} : { env }) });
  const { code } = await proc.exited(30_000);
  return { code, output: proc.output() };
}
