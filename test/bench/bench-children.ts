/**
 * The benchmarks' child processes (simulated servers, reference clients, Steward itself), each in
 * a process of its own so that its CPU and its pauses are not the measuring process's: started
 * with this process's node, their output kept to explain a failure, asked and answered over IPC,
 * stopped with SIGTERM (SIGKILL after 15 s), and killed if this process ends before its clean-up.
 */
import { type ChildProcess, type Serializable, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface Child {
  process: ChildProcess;
  output(): string;
}

/** The children still running. */
export const children = new Set<ChildProcess>();

/** Kills what is still running when this process ends before the clean-up ran (a crash). */
process.once("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** `node args` (this process's node), its output kept; `ipc`: with a channel for messages. */
export function spawnChild(args: string[], options: { cwd?: string; ipc?: boolean } = {}): Child {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    stdio: ["ignore", "pipe", "pipe", ...(options.ipc ? (["ipc"] as const) : [])],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  const append = (chunk: Buffer) => {
    // Keep the start and the latest part: enough to show why it did not start or what it said.
    output = (output + chunk.toString("utf8")).slice(-64_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return { process: child, output: () => output };
}

/** The first IPC message that `accept` takes, or an error with the child's output. */
export function message<T>(
  child: Child,
  accept: (message: unknown) => T | undefined,
  what: string,
  ms = 30_000,
) {
  return new Promise<T>((resolve, reject) => {
    const done = (error?: Error, value?: T) => {
      clearTimeout(timer);
      child.process.off("message", onMessage);
      child.process.off("exit", onExit);
      if (error) reject(error);
      else resolve(value as T);
    };
    const onMessage = (received: unknown) => {
      const value = accept(received);
      if (value !== undefined) done(undefined, value);
    };
    const onExit = (code: number | null) =>
      done(new Error(`${what}: the process exited (${code}) first:\n${child.output()}`));
    const timer = setTimeout(() => done(new Error(`${what}: no answer in ${ms} ms:\n${child.output()}`)), ms);
    child.process.on("message", onMessage);
    child.process.once("exit", onExit);
  });
}

/** Sends `question` and resolves with the first answer that has `key`. */
export function ask<T>(child: Child, question: Serializable, key: string, ms?: number): Promise<T> {
  const answer = message<T>(
    child,
    (received) =>
      typeof received === "object" && received !== null && key in received ? (received as T) : undefined,
    JSON.stringify(question),
    ms,
  );
  child.process.send(question);
  return answer;
}

/** SIGTERM, then SIGKILL after 15 s; resolves once it exited. */
export async function stopChild(child: Child | undefined): Promise<void> {
  if (child === undefined || child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((resolve) => child.process.once("exit", resolve));
  child.process.kill("SIGTERM");
  const killer = setTimeout(() => child.process.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(killer);
}
