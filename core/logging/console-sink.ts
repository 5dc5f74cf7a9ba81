import type { LogSink } from "./logger.ts";

/** Warnings and errors to stderr, everything else to stdout. */
export function consoleSink(
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): LogSink {
  return {
    write(line, level) {
      (level === "error" || level === "warn" ? stderr : stdout).write(`${line}\n`);
    },
  };
}
