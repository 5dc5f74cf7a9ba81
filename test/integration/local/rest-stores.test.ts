/**
 * The REST API's stores through the real process: key-value entries and schedules written to one
 * `steward start` are served by the next one (restart survival), on the default store settings.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

const start = (dir: string): Promise<StewardProcess> => startStewardIn(dir);

async function stop(proc: StewardProcess): Promise<void> {
  proc.child.kill("SIGTERM");
  expect((await proc.exited()).code).toBe(0);
}

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("REST stores of the local runtime", () => {
  it("keeps key-value entries and schedules across a restart", async () => {
    const dir = scratchDirectory("steward-rest-");
    const port = await freePort();
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:\n  auditEvents:\n    enable: false\n  restServer:\n    port: ${port}\n`,
    );
    const base = `http://127.0.0.1:${port}/v4`;

    const first = await start(dir);
    expect((await fetch(`${base}/keyvalues/team`, json({ key: "k1", value: "v1", ttl: 0 }))).status).toBe(
      201,
    );
    const created = await fetch(
      `${base}/schedules`,
      json({
        name: "nightly",
        cronSchedule: "0 30 2 * * *",
        timezone: "Europe/Stockholm",
        platformTaskId: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
        startupState: "started",
        tags: ["prod"],
      }),
    );
    expect(created.status).toBe(201);
    const [schedule] = (await created.json()) as { id: string }[];
    await stop(first);

    const second = await start(dir);
    expect(await (await fetch(`${base}/keyvalues/team?key=k1`)).json()).toEqual({
      namespace: "team",
      key: "k1",
      value: "v1",
    });
    expect(await (await fetch(`${base}/schedules?id=${schedule?.id}`)).json()).toEqual([
      expect.objectContaining({ id: schedule?.id, name: "nightly", lastKnownState: "started" }),
    ]);
    expect(await (await fetch(`${base}/schedules/status`)).text()).toMatch(
      new RegExp(
        `^${schedule?.id} cron="0 30 2 \\* \\* \\*" timezone=Europe/Stockholm state=running next=\\S+Z$`,
        "m",
      ),
    );
    await stop(second);
  });
});
