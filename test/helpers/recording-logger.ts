/** A Logger that records every entry so tests can assert on logs. */
import type { LogFields, Logger, LogLevel } from "../../core/ports.ts";

export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: LogFields | undefined;
  scope: string | undefined;
}

export interface RecordingLogger extends Logger {
  readonly entries: LogEntry[];
}

export function createRecordingLogger(entries: LogEntry[] = [], scope?: string): RecordingLogger {
  const record = (level: LogLevel) => (message: string, fields?: LogFields) => {
    entries.push({ level, message, fields, scope });
  };
  return {
    entries,
    error: record("error"),
    warn: record("warn"),
    info: record("info"),
    verbose: record("verbose"),
    debug: record("debug"),
    silly: record("silly"),
    isLevelEnabled: () => true,
    child: (child) => createRecordingLogger(entries, scope === undefined ? child : `${scope}.${child}`),
  };
}
