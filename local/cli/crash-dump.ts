/**
 * Crash dump files, written when the process dies of an unexpected error (settings
 * `crashFile.*`). JSON for machines, text for people; secrets masked; files created exclusively
 * with mode 0600 in a 0700 directory. The config summary holds switches only: no hosts, tokens
 * or paths.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { join, resolve } from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "../../core/adapters/local/private-files.ts";
import type { Config } from "../../core/config/index.ts";
import { redactText } from "../../core/logging/index.ts";
import { SERVICE_NAME, SERVICE_VERSION } from "../../core/version.ts";

export type CrashSource = "uncaughtException" | "unhandledRejection" | "startup";

export interface CrashDumpInput {
  error: unknown;
  source: CrashSource;
  crashFile: Config["crashFile"];
  config?: Config;
  now?: Date;
  cwd?: string;
}

let counter = 0;

/** Writes the dump files the config asks for and returns their paths. Never throws. */
export function writeCrashDump(input: CrashDumpInput): string[] {
  const { crashFile } = input;
  if (!crashFile.enable) return [];
  const now = input.now ?? new Date();
  const directory = resolve(input.cwd ?? process.cwd(), crashFile.crashFileDirectory || ".");
  const base = `crash_dump_${stamp(now)}_${process.pid}_${++counter}`;
  const report = buildReport(input, now);
  const written: string[] = [];
  try {
    mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    if (crashFile.crashFileCreateJson) {
      written.push(writeExclusive(join(directory, `${base}.json`), `${JSON.stringify(report, null, 2)}\n`));
    }
    if (crashFile.crashFileCreateText) {
      written.push(writeExclusive(join(directory, `${base}.txt`), renderText(report)));
    }
  } catch {
    // A crash handler must not crash: the error itself has already been logged by the caller.
  }
  return written;
}

interface CrashReport {
  version: "1.0";
  timestamp: string;
  app: { name: string; version: string };
  runtime: { nodeVersion: string; platform: string };
  error: { type: string; message: string; stack: string };
  context: { exitCode: 1; source: CrashSource };
  config: Record<string, string | boolean> | null;
}

function buildReport(input: CrashDumpInput, now: Date): CrashReport {
  const error = input.error instanceof Error ? input.error : new Error(String(input.error));
  return {
    version: "1.0",
    timestamp: now.toISOString(),
    app: { name: SERVICE_NAME, version: SERVICE_VERSION },
    runtime: { nodeVersion: process.versions.node, platform: `${platform()}/${arch()}` },
    error: {
      type: error.constructor.name,
      message: redactText(error.message),
      stack: redactText(error.stack ?? ""),
    },
    context: { exitCode: 1, source: input.source },
    config: input.config === undefined ? null : summarise(input.config),
  };
}

function summarise(config: Config): Record<string, string | boolean> {
  return {
    logLevel: config.logLevel,
    fileLogging: config.fileLogging,
    auditEventsEnable: config.auditEvents.enable,
    auditDestinations: config.auditEvents.destination.type.join(","),
    restServerEnable: config.restServer.enable,
    timeseriesdbEnable: config.timeseriesdbConfig.enable,
    mqttEnable: config.mqttConfig.enable,
    schedulerEnable: config.scheduler.enable,
    cloudEnable: config.cloud.enable,
  };
}

function renderText(report: CrashReport): string {
  const rule = "=".repeat(72);
  return [
    rule,
    "STEWARD CRASH REPORT",
    rule,
    `Generated:    ${report.timestamp}`,
    `Application:  ${report.app.name} ${report.app.version}`,
    `Node.js:      ${report.runtime.nodeVersion} (${report.runtime.platform})`,
    `Source:       ${report.context.source}`,
    `Exit code:    ${report.context.exitCode}`,
    "",
    `Error type:   ${report.error.type}`,
    `Message:      ${report.error.message}`,
    "",
    "Stack trace:",
    report.error.stack,
    rule,
    "END OF CRASH REPORT",
    rule,
    "",
  ].join("\n");
}

function writeExclusive(path: string, content: string): string {
  writeFileSync(path, content, { flag: "wx", mode: PRIVATE_FILE_MODE });
  return path;
}

function stamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-22T03:40:05.123Z
  return `${iso.slice(0, 10).replaceAll("-", "")}_${iso.slice(11, 19).replaceAll(":", "")}_${iso.slice(20, 23)}`;
}
