/** A Logger that records every entry so tests can assert what was logged. */
import type { LogFields, Logger, LogLevel } from "../../core/ports.ts";

export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: LogFields | undefined;
  scope: string;
}

export interface RecordingLogger extends Logger {
  entries: LogEntry[];
}

export function createRecordingLogger(scope = "", entries: LogEntry[] = []): RecordingLogger {
  const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
    entries.push({ level, message, fields, scope });
  };
  return {
    entries,
    error: log("error"),
    warn: log("warn"),
    info: log("info"),
    verbose: log("verbose"),
    debug: log("debug"),
    silly: log("silly"),
    isLevelEnabled: () => true,
    child: (child: string) => createRecordingLogger(scope === "" ? child : `${scope}.${child}`, entries),
  };
}
