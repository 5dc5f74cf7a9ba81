import type { LogFields, Logger, LogLevel } from "../../core/ports.ts";

export interface LogEntry {
  level: LogLevel;
  scope: string | undefined;
  message: string;
  fields: LogFields | undefined;
}

/** A Logger that keeps every entry (all levels) so tests can assert what was logged. */
export interface RecordingLogger extends Logger {
  entries: LogEntry[];
  at(level: LogLevel): LogEntry[];
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const build = (scope: string | undefined): Logger => {
    const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
      entries.push({ level, scope, message, fields });
    };
    return {
      error: log("error"),
      warn: log("warn"),
      info: log("info"),
      verbose: log("verbose"),
      debug: log("debug"),
      silly: log("silly"),
      isLevelEnabled: () => true,
      child: (child) => build(scope === undefined ? child : `${scope}/${child}`),
    };
  };
  return { ...build(undefined), entries, at: (level) => entries.filter((entry) => entry.level === level) };
}
