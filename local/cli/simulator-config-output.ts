/**
 * Where a simulator command (`simulate-platform`, `simulate-qlik-cloud`) puts the configuration
 * that points Steward at it: standard output, which then carries the configuration and nothing
 * else (so `> steward-sim.yaml` gives a file Steward reads), or `--write-config FILE`. A file is
 * only replaced when that simulator wrote it (its first line says so), so an operator's own
 * configuration is never overwritten.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { CliIo } from "./cli.ts";

export interface SimulatorOutput {
  /** The command's name, in messages. */
  readonly command: string;
  /** The first line of every configuration the command writes. */
  readonly firstLine: string;
}

/** `--write-config FILE`: the absolute path and the file as given (for the next command shown). */
export interface WriteConfigTarget {
  readonly path: string;
  readonly given: string;
}

/** An error as one line, with the system's code when the message lacks it. */
export function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Why `path` may not be replaced: it exists and the command did not write it (it might be the
 * operator's own configuration); undefined when it may.
 */
export async function replaceRefusal(path: string, output: SimulatorOutput): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? undefined
      : `cannot read ${path} to check it before replacing it: ${reason(error)}`;
  }
  return text.startsWith(output.firstLine)
    ? undefined
    : `${path} exists and was not written by ${output.command}; name another file with --write-config, or remove it`;
}

/** The configuration to standard output, or to `--write-config`'s file; a message when it cannot be. */
export async function writeConfiguration(
  snippet: string,
  file: WriteConfigTarget | undefined,
  io: CliIo,
): Promise<string | undefined> {
  if (file === undefined) {
    io.stdout.write(snippet);
    io.stderr.write(
      "\nThe configuration is on standard output: save it with `> steward-sim.yaml` (or write it with " +
        "--write-config steward-sim.yaml) and run `npx steward start --config steward-sim.yaml` in another terminal.\n",
    );
    return undefined;
  }
  try {
    await writeFile(file.path, snippet);
  } catch (error) {
    return `cannot write the configuration to ${file.path}: ${reason(error)}`;
  }
  io.stderr.write(
    `\nConfiguration written to ${file.path}: run \`npx steward start --config ${file.given}\` in another terminal.\n`,
  );
  return undefined;
}
