/** A Logger that records every entry so tests can assert what was logged (and what was not). */
import type { LogFields, Logger, LogLevel } from "../../core/ports.ts";

export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: LogFields | undefined;
}

export interface RecordingLogger extends Logger {
  readonly entries: LogEntry[];
}

export function createRecordingLogger(entries: LogEntry[] = []): RecordingLogger {
  const record = (level: LogLevel) => (message: string, fields?: LogFields) => {
    entries.push({ level, message, fields });
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
    child: () => createRecordingLogger(entries),
  };
}
