/**
 * The logger: the configuration file's levels (error … silly), written to sinks (console, daily files).
 * Created once per process by the entry point and injected everywhere.
 */

import type { LogFields, Logger, LogLevel } from "../ports.ts";
import { formatLogLine } from "./format.ts";
import { LOG_LEVELS } from "./log-levels.ts";

/** Where formatted lines go. */
export interface LogSink {
  write(line: string, level: LogLevel): void;
  close?(): Promise<void>;
}

export interface LoggerOptions {
  level: LogLevel;
  sinks: readonly LogSink[];
  /** Injected for tests; defaults to the wall clock. */
  now?: () => Date;
}

/** A Logger that can also be closed (flushing file sinks) by the entry point. */
export interface RootLogger extends Logger {
  close(): Promise<void>;
}

const RANK: Readonly<Record<LogLevel, number>> = Object.fromEntries(
  LOG_LEVELS.map((level, index) => [level, index]),
) as Record<LogLevel, number>;

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export function createLogger(options: LoggerOptions): RootLogger {
  const threshold = RANK[options.level];
  const now = options.now ?? (() => new Date());
  const sinks = options.sinks;

  function build(scope: string | undefined): Logger {
    const emit = (level: LogLevel, message: string, fields?: LogFields): void => {
      if (RANK[level] > threshold) return;
      const line = formatLogLine(now(), level, scope, message, fields);
      for (const sink of sinks) sink.write(line, level);
    };
    return {
      error: (message, fields) => emit("error", message, fields),
      warn: (message, fields) => emit("warn", message, fields),
      info: (message, fields) => emit("info", message, fields),
      verbose: (message, fields) => emit("verbose", message, fields),
      debug: (message, fields) => emit("debug", message, fields),
      silly: (message, fields) => emit("silly", message, fields),
      isLevelEnabled: (level) => RANK[level] <= threshold,
      child: (childScope) => build(scope === undefined ? childScope : `${scope}/${childScope}`),
    };
  }

  return {
    ...build(undefined),
    async close() {
      await Promise.all(sinks.map((sink) => sink.close?.()));
    },
  };
}
