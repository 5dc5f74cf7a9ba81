/**
 * Two on-prem agents on one DynamoDB schedule table (dynalite on loopback), end to end through
 * `steward start`: both fire the same every-second schedule, and each occurrence's task is
 * started by exactly one of them (the lease in the schedule table). Without a platform the task
 * starter logs one "NOT started" line per start, so the starts are counted across both logs.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDynamoScheduleStore } from "../../../core/adapters/aws/dynamo-schedule-store.ts";
import { type DynaliteServer, startDynalite } from "../../helpers/dynalite-server.ts";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

const SCHEDULE_TABLE = "steward-schedules";
const TASK = "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1";
let dynamo: DynaliteServer;

beforeAll(async () => {
  dynamo = await startDynalite();
  await dynamo.createTable(SCHEDULE_TABLE, "id");
});
afterAll(async () => {
  await dynamo?.close();
});

async function startAgent(): Promise<StewardProcess> {
  const dir = scratchDirectory("steward-cloud-scheduler-");
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    enable: false
  restServer:
    port: ${await freePort()}
  cloud:
    enable: true
    region: us-east-1
    scheduleTable: ${SCHEDULE_TABLE}
`,
  );
  return startStewardIn(dir, {
    args: ["--log-level", "debug"],
    env: { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint },
  });
}

const lines = (output: string, pattern: RegExp) => output.split("\n").filter((line) => pattern.test(line));
const dueOf = (line: string) => /\bdue=(\S+)/.exec(line)?.[1];

describe("agents on one DynamoDB schedule table", () => {
  it("start each occurrence of a shared schedule exactly once", async () => {
    await createDynamoScheduleStore({ client: dynamo.client, tableName: SCHEDULE_TABLE }).put({
      id: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
      created: "2026-01-01T00:00:00.000Z",
      name: "every second",
      cronSchedule: "* * * * * *",
      timezone: "UTC",
      platformTaskId: TASK,
      startupState: "started",
      tags: [],
      lastKnownState: "started",
    });
    const agents = await Promise.all([startAgent(), startAgent()]);

    // Both agents fire for a few seconds.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    for (const agent of agents) agent.child.kill("SIGTERM");
    for (const agent of agents) expect((await agent.exited()).code).toBe(0);

    const outputs = agents.map((agent) => agent.output());
    const fired = outputs.flatMap((output) => lines(output, /Schedule fired, starting platform task/));
    const notStarted = outputs.flatMap((output) => lines(output, /scheduled task NOT started/));
    const refused = outputs.flatMap((output) => lines(output, /started by another instance/));
    const firedDues = fired.map(dueOf);
    expect(fired.length).toBeGreaterThanOrEqual(3);
    expect(new Set(firedDues).size).toBe(fired.length);
    expect(notStarted).toHaveLength(fired.length);
    // Both competed: the occurrences one agent lost are among those the other started.
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const line of refused) expect(firedDues).toContain(dueOf(line));
  }, 40_000);
});
