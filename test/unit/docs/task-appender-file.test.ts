/**
 * The scheduler appender file Steward ships sends what the task-event listener reads: each task
 * appender's pattern, filled as log4net fills it, is a datagram the parser accepts as the kind
 * the appender is for, sent to the task-event port; and the simulated platform's sender uses the
 * same prefixes, so trying Steward without a platform shows what the real file sends.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTaskDatagram } from "../../../core/task-events/task-datagram.ts";
import { markerOf } from "../../../core/udp/datagram-text.ts";
import { APPENDER_PREFIXES } from "../../../local/simulated-platform/task-event-sender.ts";

const FILE = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "docs",
  "log-appenders",
  "scheduler",
  "LocalLogConfig.xml",
);
const xml = readFileSync(FILE, "utf8");

/** Each appender's name, remote port and conversion pattern. */
function appenders(): { name: string; port: string; pattern: string }[] {
  return [...xml.matchAll(/<appender name="([^"]+)"[\s\S]*?<\/appender>/g)].map((match) => ({
    name: match[1] as string,
    port: /name="remotePort" value="(\d+)"/.exec(match[0])?.[1] ?? "",
    pattern: /name="conversionpattern" value="([^"]+)"/.exec(match[0])?.[1] ?? "",
  }));
}

/** The pattern as log4net fills it for one run (a `;` in the message included). */
function filled(pattern: string): string {
  return pattern
    .replace("%hostname", "qs-node1")
    .replace("%property{TaskName}", "Reload Sales")
    .replace("%property{AppName}", "Sales dashboard")
    .replace("%property{User}", "INTERNAL\\sa_scheduler")
    .replace("%property{TaskId}", "54767e54-af40-4da3-8c3a-a9ead04c7ee9")
    .replace("%property{AppId}", "a9e84152-206c-4b0e-a459-e5c2021f8316")
    .replace("%date", "2026-11-27 03:01:00,345")
    .replace("%level", "INFO")
    .replace("%property{ExecutionId}", "32342464-c525-45c4-b755-1a2b55d4e7f1")
    .replace("%message", "Execution State Change to Aborting; by user");
}

const KINDS: Record<string, string> = {
  StewardTaskFailed: "failed",
  StewardTaskAborted: "aborted",
  StewardTaskSuccess: "success",
  StewardDistributeTask: "distribute",
};

describe("the scheduler appender file Steward ships", () => {
  const tasks = appenders().filter((appender) => appender.name in KINDS);

  it("has a task appender for each outcome, sending to the task-event port", () => {
    expect(tasks.map((appender) => appender.name).sort()).toEqual(Object.keys(KINDS).sort());
    expect(new Set(tasks.map((appender) => appender.port))).toEqual(new Set(["9998"]));
  });

  it.each(Object.entries(KINDS))("%s sends a datagram the listener reads as %s", (name, kind) => {
    const text = filled(tasks.find((appender) => appender.name === name)?.pattern ?? "");
    const result = parseTaskDatagram(text, markerOf(text), { receivedAtMs: 0, sender: "10.0.0.5" });
    expect(result).toMatchObject({
      ok: true,
      event: { kind, logMessage: "Execution State Change to Aborting; by user" },
    });
  });

  it("uses the prefixes the simulated platform sends", () => {
    const prefixes = tasks.map((appender) => appender.pattern.split(";")[0]);
    expect(prefixes).toEqual(expect.arrayContaining(Object.values(APPENDER_PREFIXES)));
  });
});
