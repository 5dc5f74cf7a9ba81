import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dailyFileSink } from "../../../../core/adapters/local/daily-file-sink.ts";
import { createLogger, type LogSink } from "../../../../core/logging/logger.ts";
import type { LogLevel } from "../../../../core/ports.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";

function memorySink(): LogSink & { lines: { line: string; level: LogLevel }[] } {
  const lines: { line: string; level: LogLevel }[] = [];
  return { lines, write: (line, level) => lines.push({ line, level }) };
}

const at = (iso: string) => () => new Date(iso);

describe("createLogger", () => {
  it("writes only messages at or above the configured level", () => {
    const sink = memorySink();
    const logger = createLogger({ level: "info", sinks: [sink], now: at("2026-11-22T10:00:00.000Z") });
    logger.silly("s");
    logger.debug("d");
    logger.verbose("v");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(sink.lines.map((entry) => entry.level)).toEqual(["info", "warn", "error"]);
    expect(logger.isLevelEnabled("verbose")).toBe(false);
    expect(logger.isLevelEnabled("warn")).toBe(true);
  });

  it("at silly writes every level", () => {
    const sink = memorySink();
    const logger = createLogger({ level: "silly", sinks: [sink] });
    for (const level of ["silly", "debug", "verbose", "info", "warn", "error"] as const) logger[level](level);
    expect(sink.lines).toHaveLength(6);
  });

  it("formats time, level, scope, message and fields on one line", () => {
    const sink = memorySink();
    const logger = createLogger({ level: "info", sinks: [sink], now: at("2026-11-22T10:00:00.000Z") });
    logger
      .child("audit")
      .child("queue")
      .warn("backpressure", { pct: 85, queue: "audit events", skip: undefined });
    expect(sink.lines[0]?.line).toBe(
      '2026-11-22T10:00:00.000Z warn: [audit/queue] backpressure pct=85 queue="audit events"',
    );
  });

  it("renders objects and errors as JSON without throwing on cycles", () => {
    const sink = memorySink();
    const logger = createLogger({ level: "info", sinks: [sink], now: at("2026-11-22T10:00:00.000Z") });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    logger.info("m", { obj: { a: 1 }, err: new Error("boom"), cyclic });
    expect(sink.lines[0]?.line).toContain('obj={"a":1} err="boom" cyclic="[object Object]"');
  });
});

describe("dailyFileSink", () => {
  it("writes each day's lines to steward.YYYY-MM-DD.log under the directory, creating it", async () => {
    const directory = join(scratchDirectory("steward-log-"), "nested", "log");
    let now = new Date("2026-11-22T23:59:59.000Z");
    const logger = createLogger({
      level: "info",
      sinks: [dailyFileSink({ directory, now: () => now })],
      now: () => now,
    });
    logger.info("before midnight");
    now = new Date("2026-11-23T00:00:01.000Z");
    logger.info("after midnight");
    await logger.close();
    expect(readdirSync(directory).sort()).toEqual(["steward.2026-11-22.log", "steward.2026-11-23.log"]);
    expect(readFileSync(join(directory, "steward.2026-11-23.log"), "utf8")).toBe(
      "2026-11-23T00:00:01.000Z info: after midnight\n",
    );
  });
});
