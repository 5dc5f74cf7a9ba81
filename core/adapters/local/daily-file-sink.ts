/**
 * Daily log files `steward.YYYY-MM-DD.log` (UTC date) under the configured directory. A new file
 * is opened when the date of a line differs from the open file's; the directory is created on
 * first write.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import type { LogSink } from "../../logging/index.ts";

export interface DailyFileSinkOptions {
  directory: string;
  /** Injected for tests; defaults to the wall clock. */
  now?: () => Date;
}

export function dailyFileName(date: Date): string {
  return `steward.${date.toISOString().slice(0, 10)}.log`;
}

export function dailyFileSink(options: DailyFileSinkOptions): LogSink {
  const now = options.now ?? (() => new Date());
  let openName: string | undefined;
  let stream: WriteStream | undefined;

  function streamFor(name: string): WriteStream {
    if (stream !== undefined && openName === name) return stream;
    stream?.end();
    mkdirSync(options.directory, { recursive: true });
    openName = name;
    stream = createWriteStream(join(options.directory, name), { flags: "a" });
    return stream;
  }

  return {
    write(line) {
      streamFor(dailyFileName(now())).write(`${line}\n`);
    },
    close() {
      const current = stream;
      stream = undefined;
      openName = undefined;
      if (current === undefined) return Promise.resolve();
      return new Promise<void>((resolve) => current.end(resolve));
    },
  };
}
