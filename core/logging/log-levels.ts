/** The configuration file's log levels, from least to most verbose. */
export const LOG_LEVELS = ["error", "warn", "info", "verbose", "debug", "silly"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
