/**
 * The command line (local/cli/cli.ts) run in process: an io whose standard output and error are
 * recorded for the test to read, and the exit code of a one-shot command.
 */
import { Writable } from "node:stream";
import type { CliIo, CliResult } from "../../local/cli/cli.ts";

export type RecordingCliIo = CliIo & { out(): string; err(): string };

/** An io in `cwd` with an empty environment, recording what the command writes. */
export function recordingCliIo(cwd: string): RecordingCliIo {
  let out = "";
  let err = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  return {
    stdout: sink((text) => {
      out += text;
    }),
    stderr: sink((text) => {
      err += text;
    }),
    env: {},
    cwd,
    out: () => out,
    err: () => err,
  };
}

/** The exit code of a one-shot command; throws when the command is still running (a service). */
export function exitCode(result: CliResult): number {
  if (!("exitCode" in result)) throw new Error("expected a one-shot result");
  return result.exitCode;
}
