/** Log levels of spec document 3, from least to most verbose. */
export const LOG_LEVELS = ["error", "warn", "info", "verbose", "debug", "silly"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
