/** Top-level logging keys, crash dumps, systemInfo and error tracking. */

import * as v from "valibot";
import { LOG_LEVELS } from "../../logging/index.ts";
import { bool, nonEmptyStr, section, str } from "./primitives.ts";

export const logLevelSchema = v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`);

export const loggingEntries = {
  logLevel: v.optional(logLevelSchema, "info"),
  fileLogging: bool(false),
  logDirectory: nonEmptyStr("log"),
  anonTelemetry: bool(false),
  /** Where anonymous telemetry is POSTed when `anonTelemetry` is true. */
  anonTelemetryEndpoint: str(""),
};

export const crashFileSchema = section({
  enable: bool(true),
  crashFileDirectory: str("./crash_dumps"),
  crashFileCreateJson: bool(true),
  crashFileCreateText: bool(true),
});

export const systemInfoSchema = section({ enable: bool(true) });

export const errorTrackingSchema = section({
  enable: bool(false),
  logSummary: section({ enable: bool(true) }),
  timeseriesdb: section({
    enable: bool(true),
    measurementName: nonEmptyStr("butler_sos_errors"),
  }),
});
