/** `heartbeat.frequency` and `uptimeMonitor.frequency` accept later.js text and 5/6-field cron only. */
import { describe, expect, it } from "vitest";
import { problemsOf } from "./helpers.ts";

const heartbeat = (frequency: string) => ({
  heartbeat: { enable: true, remoteURL: "http://monitor.example.com/ping", frequency },
});
const uptime = (frequency: string) => ({ uptimeMonitor: { enable: true, frequency } });

describe("schedule expressions in the config", () => {
  it.each([
    "every 30 seconds",
    "every 1 hour",
    "every 2 days",
    "at 10:15 am",
    "*/5 * * * *",
    "0 */2 * * * *",
  ])("accepts %j for both schedules", (frequency) => {
    expect(problemsOf(heartbeat(frequency))).toEqual([]);
    expect(problemsOf(uptime(frequency))).toEqual([]);
  });

  it.each([
    ["hourly please", "is not a schedule"],
    ["every 1 hour and then some", 'not understood from "then some"'],
    ["61 * * * *", "Invalid cron expression"],
    ["* * *", "is not a schedule"],
    ["", "must not be empty"],
  ])("rejects %j", (frequency, message) => {
    const [heartbeatProblem] = problemsOf(heartbeat(frequency));
    const [uptimeProblem] = problemsOf(uptime(frequency));
    expect(heartbeatProblem).toMatch(/^Service\.heartbeat\.frequency: /);
    expect(heartbeatProblem).toContain(message);
    expect(uptimeProblem).toMatch(/^Service\.uptimeMonitor\.frequency: /);
    expect(uptimeProblem).toContain(message);
  });

  it("does not check the schedule of a disabled section", () => {
    expect(problemsOf({ heartbeat: { enable: false, frequency: "<placeholder>" } })).toEqual([]);
  });
});
