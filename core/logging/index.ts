/**
 * The logging module's only door: code outside core/logging/ imports this file and nothing else
 * of the module, so its files can be rearranged without touching their users. It gives the
 * logger (the configuration file's levels, written to sinks), the console sink, the throttle
 * that says a repeated failure once a minute with its count, and the masking of secrets in free
 * text.
 */
export { consoleSink } from "./console-sink.ts";
export { LOG_LEVELS, type LogLevel } from "./log-levels.ts";
export { createLogThrottle, type LogThrottle } from "./log-throttle.ts";
export { createLogger, isLogLevel, type LogSink, type RootLogger } from "./logger.ts";
export { redactText } from "./redact.ts";
