/**
 * Walks a trial of the handbook the way a reader does: the blocks a page marks for the walk are
 * read from the page itself, so a page and its test change together.
 *
 * - `<!-- walk NAME -->` before a `sh` block: its commands, run one after the other with bash in
 *   a scratch copy of the project directory. Comment lines after a command (`# ok`) are what its
 *   output must contain (`...` stands for anything); such a command is run again until it does
 *   (what it reads may still be on its way), within a minute. A command that serves until Ctrl-C
 *   (BACKGROUND below) is started and waited for until it says it is ready.
 * - `<!-- walk NAME: shows -->` before a `text` block: lines that the running commands must show.
 * - `<!-- walk NAME: file FILE -->` before a block: the file the page tells the reader to save.
 *
 * The pages use the default ports; the walk moves them to free ones, nothing else (see
 * walk-ports.ts): in the commands, in what they must show, and in the configuration files before
 * each command.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDirectory } from "./per-test-environment.ts";
import type { WalkPorts } from "./walk-ports.ts";

const ROOT = join(import.meta.dirname, "..", "..");

export type WalkBlock =
  | { readonly kind: "commands"; readonly text: string }
  | { readonly kind: "shows"; readonly text: string }
  | { readonly kind: "file"; readonly file: string; readonly text: string };

const MARKER = /^<!-- walk ([\w-]+)(?:: (shows|file) ?([^\s]*))? -->$/;

/** The blocks of `page` (a path under the repository) marked for the walk `name`, in page order. */
export function walkedBlocks(page: string, name: string): WalkBlock[] {
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  const blocks: WalkBlock[] = [];
  lines.forEach((line, index) => {
    const marker = MARKER.exec(line);
    if (marker === null || marker[1] !== name) return;
    const fence = lines[index + 1] ?? "";
    const end = lines.findIndex((candidate, at) => at > index + 1 && candidate.startsWith("```"));
    if (!fence.startsWith("```") || end === -1)
      throw new Error(`${page}:${index + 1}: no fenced block after ${line}`);
    const text = lines.slice(index + 2, end).join("\n");
    if (marker[2] === "shows") blocks.push({ kind: "shows", text });
    else if (marker[2] === "file") blocks.push({ kind: "file", file: marker[3] ?? "", text: `${text}\n` });
    else blocks.push({ kind: "commands", text });
  });
  return blocks;
}

/** Every walk name marked in `page`. */
export function walkNames(page: string): string[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  return [...new Set([...text.matchAll(/^<!-- walk ([\w-]+)/gm)].map((match) => match[1] ?? ""))];
}

export interface ShellCommand {
  readonly command: string;
  /** The comment lines after it, without `# `: what its output must contain. */
  readonly expected: readonly string[];
}

/**
 * The commands of a `sh` block: a command ends at a line break outside quotes that no backslash
 * continues; a line that starts with `#` between commands is expected output.
 */
export function shellCommands(text: string): ShellCommand[] {
  const commands: { command: string; expected: string[] }[] = [];
  let current = "";
  let quote: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text[at] ?? "";
    if (current === "" && quote === undefined && char === "#") {
      const end = text.indexOf("\n", at);
      const line = text.slice(at, end === -1 ? undefined : end);
      commands.at(-1)?.expected.push(line.replace(/^# ?/, ""));
      at = end === -1 ? text.length : end;
      continue;
    }
    // A backslash before the line break continues the command (bash reads both as they are).
    if (quote === undefined && char === "\n" && !current.endsWith("\\")) {
      if (current.trim() !== "") commands.push({ command: current.trim(), expected: [] });
      current = "";
      continue;
    }
    if (quote === undefined && (char === "'" || char === '"')) quote = char;
    else if (quote === char) quote = undefined;
    current += char;
  }
  if (current.trim() !== "") commands.push({ command: current.trim(), expected: [] });
  return commands;
}

/** `line` as a pattern: `...` stands for anything, the rest literally. */
export function shownPattern(line: string): RegExp {
  return new RegExp(
    line
      .split("...")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*"),
  );
}

/** Commands that serve until Ctrl-C, and what each says once it is ready. */
const BACKGROUND: readonly { readonly starts: RegExp; readonly ready?: RegExp }[] = [
  { starts: /^npm start\b/, ready: /steward ready/ },
  { starts: /^npx steward start\b/, ready: /steward ready/ },
  { starts: /^npx steward simulate-platform\b/, ready: /Stop the simulated platform with Ctrl-C\./ },
  // It says nothing until a message comes: the walk's `connected` hook tells when it is subscribed.
  { starts: /^npx mqtt sub\b/ },
];

/**
 * Call at module level: true when the tools the pages' commands use besides node and npm (bash,
 * curl) are missing and the walks must be skipped; outside CI with a loud warning, in CI an error.
 */
export function skipWithoutShellTools(): boolean {
  const missing = ["bash", "curl"].filter((tool) => spawnSync("which", [tool]).status !== 0);
  if (missing.length === 0) return false;
  if (process.env.CI === "true")
    throw new Error(`${missing.join(" and ")} required in CI (apt-get install -y ${missing.join(" ")})`);
  console.warn(`\n*** ${missing.join(" and ")} not installed: handbook walks SKIPPED ***\n`);
  return true;
}

/**
 * A scratch project directory: the repository's package.json, bin/ and node_modules/, linked;
 * removed by `finished`, the test's own hook when tests run side by side (scratchDirectory).
 */
export function scratchProject(prefix: string, finished?: (cleanUp: () => void) => void): string {
  const dir = scratchDirectory(prefix, finished);
  for (const name of ["package.json", "bin", "node_modules"]) symlinkSync(join(ROOT, name), join(dir, name));
  return dir;
}

interface Running {
  readonly command: string;
  readonly child: ChildProcess;
  output: string;
  exited?: { code: number | null; signal: string | null };
}

export interface WalkOptions {
  readonly ports: WalkPorts;
  /** Waits until a background command without a ready line (`npx mqtt sub`) is connected. */
  readonly connected?: (command: string) => Promise<void>;
  /** The test's own hook, for the processes left running when it ends. */
  readonly onFinished: (hook: () => void) => void;
}

/** Runs a trial's blocks in one scratch project directory; `stop()` is the reader's Ctrl-C. */
export class Walk {
  readonly dir: string;
  private readonly running: Running[] = [];
  private readonly startedAt = Date.now();

  constructor(private readonly options: WalkOptions) {
    // The test's own hook: with the global one, the walks side by side could remove this
    // directory when another walk ends (seen on Node 24: the README walk lost its node_modules).
    this.dir = scratchProject("steward-walk-", options.onFinished);
    options.onFinished(() => {
      for (const proc of this.running) if (proc.exited === undefined) killGroup(proc.child, "SIGKILL");
    });
  }

  /** Milliseconds since the walk began. */
  elapsedMs(): number {
    return Date.now() - this.startedAt;
  }

  /** What the running commands have written so far, one after the other. */
  output(): string {
    return this.running.map((proc) => proc.output).join("\n");
  }

  async block(block: WalkBlock): Promise<void> {
    if (block.kind === "file") writeFileSync(join(this.dir, block.file), block.text);
    else if (block.kind === "shows") await this.shows(block.text);
    else for (const step of shellCommands(block.text)) await this.run(step);
  }

  /** Waits until every line of `text` shows in the running commands' output. */
  async shows(text: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const line of text.split("\n").filter((candidate) => candidate.trim() !== "")) {
      const pattern = shownPattern(this.options.ports.inText(line));
      while (
        !this.output()
          .split("\n")
          .some((shown) => pattern.test(shown))
      ) {
        if (Date.now() > deadline) throw new Error(`never shown: ${line}\noutput:\n${this.output()}`);
        await pause(200);
      }
    }
  }

  private async run(step: ShellCommand): Promise<void> {
    this.options.ports.inConfigFiles(this.dir);
    const command = this.options.ports.inCommand(step.command, this.dir);
    const background = BACKGROUND.find((entry) => entry.starts.test(command));
    if (background !== undefined) {
      const proc = this.start(command);
      if (background.ready !== undefined) await this.until(proc, background.ready);
      else await this.options.connected?.(step.command);
      return;
    }
    const expected = step.expected.map((line) => shownPattern(this.options.ports.inText(line)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { code, output } = await this.once(command);
      const missing = expected.filter((pattern) => !output.split("\n").some((line) => pattern.test(line)));
      if (code === 0 && missing.length === 0) return;
      // What a command with expected output reads may still be on its way (a file written after
      // 20 s, a point not yet in the database): it is run again; one without must succeed at once.
      if (expected.length === 0 || Date.now() > deadline) {
        throw new Error(
          `\`${command}\` exited ${code}; missing ${missing.join(", ") || "nothing"}; output:\n${output}`,
        );
      }
      await pause(1000);
    }
  }

  private start(command: string): Running {
    const child = spawn("bash", ["-c", command], { cwd: this.dir, env: walkEnv(this.dir), detached: true });
    const proc: Running = { command, child, output: "" };
    const append = (chunk: Buffer) => {
      proc.output += chunk.toString("utf8");
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    child.once("exit", (code, signal) => {
      proc.exited = { code, signal };
    });
    this.running.push(proc);
    return proc;
  }

  private async until(proc: Running, ready: RegExp): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!ready.test(proc.output)) {
      if (proc.exited !== undefined || Date.now() > deadline) {
        throw new Error(`\`${proc.command}\` did not get ready:\n${proc.output}`);
      }
      await pause(100);
    }
  }

  private once(command: string): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn("bash", ["-c", command], { cwd: this.dir, env: walkEnv(this.dir), detached: true });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      // The whole group: a command that does not end (a server the walk does not know) ends here.
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 60_000);
      child.once("close", (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
  }

  /**
   * Ctrl-C to every running command, the last started first, as a terminal sends it to its
   * process group; answers how long each took to exit and what it wrote.
   */
  async stop(): Promise<{ command: string; ms: number; output: string; exited: boolean }[]> {
    const stopped = [];
    for (const proc of [...this.running].reverse()) {
      const started = Date.now();
      if (proc.exited === undefined) killGroup(proc.child, "SIGINT");
      while (proc.exited === undefined && Date.now() - started < 15_000) await pause(50);
      stopped.push({
        command: proc.command,
        ms: Date.now() - started,
        output: proc.output,
        exited: proc.exited !== undefined,
      });
    }
    return stopped;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Gone already.
  }
}

/** The environment of the walk's commands: npm's cache in the scratch directory, nothing fetched. */
function walkEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_cache: join(dir, ".npm-cache"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
