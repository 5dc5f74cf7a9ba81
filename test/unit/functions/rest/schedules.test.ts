import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Schedule } from "../../../../core/ports.ts";
import { createRestTestApp, json, type RestTestApp, removeDir } from "../../../helpers/rest-app.ts";

const TASK = "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1";
let t: RestTestApp;
beforeEach(async () => {
  t = await createRestTestApp();
});
afterEach(async () => {
  await t.close();
  await removeDir(t.dir);
});

const input = (overrides: Record<string, unknown> = {}) => ({
  name: "Every 20 s",
  cronSchedule: "*/20 * * * * *",
  timezone: "Europe/Stockholm",
  platformTaskId: TASK,
  startupState: "started",
  tags: ["finance"],
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<Schedule> {
  const response = await t.app.request("/v4/schedules", json("POST", input(overrides)));
  expect(response.status).toBe(201);
  const [schedule] = (await response.json()) as Schedule[];
  await t.clock.advance(1); // distinct creation times: listings are in creation order
  return schedule!;
}

describe("schedule endpoints", () => {
  it("POST answers 201 with an array holding the new schedule", async () => {
    const response = await t.app.request("/v4/schedules", json("POST", input()));
    expect(response.status).toBe(201);
    const body = (await response.json()) as Schedule[];
    expect(body).toHaveLength(1);
    expect(body[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      created: "2026-01-01T00:00:00.000Z",
      ...input(),
      lastKnownState: "started",
    });
  });

  it("a created 6-field schedule fires its task on time under the injected clock", async () => {
    await create();
    await t.clock.advance(40_000);
    expect(t.startedTasks).toEqual([TASK, TASK]);
  });

  it.each([
    [{ cronSchedule: "0 0 1 13 *" }, /^Invalid cron expression '0 0 1 13 \*'/],
    [{ cronSchedule: "* * *" }, /must have 5 fields/],
    [{ timezone: "Nowhere/Zone" }, /^Unknown time zone 'Nowhere\/Zone'/],
    [{ platformTaskId: "not-a-uuid" }, /^body\/platformTaskId: must be a UUID$/],
    [{ startupState: "start" }, /^body\/startupState: Invalid type/],
    [{ tags: "single" }, /^body\/tags: Invalid type/],
    [{ tags: [["nested"]] }, /^body\/tags\/0: Invalid type/],
    [{ name: undefined }, /^body\/name: required$/],
    [{ name: "x".repeat(300) }, /^body\/name: name is too long$/],
  ])("POST %j answers 400 and creates nothing", async (overrides, message) => {
    const response = await t.app.request("/v4/schedules", json("POST", input(overrides)));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(message);
    expect(await t.scheduleStore.list()).toEqual([]);
  });

  it("GET lists all, or [the one] with ?id=, and 404 for an unknown id", async () => {
    const a = await create();
    const b = await create({ name: "Second", startupState: "stopped" });
    expect(await (await t.app.request("/v4/schedules")).json()).toEqual([a, b]);
    expect(await (await t.app.request(`/v4/schedules?id=${b.id}`)).json()).toEqual([b]);
    const missing = await t.app.request("/v4/schedules?id=nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "Schedule 'nope' not found",
    });
  });

  it("start and stop answer the schedule; startall and stopall answer all; unknown ids 404", async () => {
    const a = await create({ startupState: "stopped" });
    const started = await t.app.request(`/v4/schedules/${a.id}/start`, { method: "PUT" });
    expect(await started.json()).toEqual({ ...a, lastKnownState: "started" });
    const stopped = await t.app.request(`/v4/schedules/${a.id}/stop`, { method: "PUT" });
    expect(await stopped.json()).toEqual({ ...a, lastKnownState: "stopped" });
    await create();
    const all = (await (
      await t.app.request("/v4/schedules/startall", { method: "PUT" })
    ).json()) as Schedule[];
    expect(all.map((s) => s.lastKnownState)).toEqual(["started", "started"]);
    const none = (await (
      await t.app.request("/v4/schedules/stopall", { method: "PUT" })
    ).json()) as Schedule[];
    expect(none.map((s) => s.lastKnownState)).toEqual(["stopped", "stopped"]);
    await t.clock.advance(60_000);
    expect(t.startedTasks).toEqual([]);
    expect((await t.app.request("/v4/schedules/nope/start", { method: "PUT" })).status).toBe(404);
    expect((await t.app.request("/v4/schedules/nope/stop", { method: "PUT" })).status).toBe(404);
  });

  it("DELETE answers 204 with an empty body, then 404", async () => {
    const a = await create();
    const deleted = await t.app.request(`/v4/schedules/${a.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await t.app.request(`/v4/schedules/${a.id}`, { method: "DELETE" })).status).toBe(404);
    await t.clock.advance(60_000);
    expect(t.startedTasks).toEqual([]);
  });

  it("status answers text/plain, one line per job: id, cron, timezone, state and next run", async () => {
    const a = await create();
    const b = await create({
      cronSchedule: "0 9 * * 1-5",
      timezone: "America/New_York",
      startupState: "stopped",
    });
    const response = await t.app.request("/v4/schedules/status");
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(
      `${a.id} cron="*/20 * * * * *" timezone=Europe/Stockholm state=running next=2026-01-01T00:00:20.000Z\n` +
        `${b.id} cron="0 9 * * 1-5" timezone=America/New_York state=stopped next=-\n`,
    );
  });

  it("keeps schedules across a restart, each taking its startupState", async () => {
    const a = await create();
    const b = await create({ startupState: "stopped" });
    await t.app.request(`/v4/schedules/${a.id}/stop`, { method: "PUT" });
    await t.app.request(`/v4/schedules/${b.id}/start`, { method: "PUT" });
    await t.close();
    t = await createRestTestApp({ dir: t.dir });
    const listed = (await (await t.app.request("/v4/schedules")).json()) as Schedule[];
    expect(listed.map((s) => [s.id, s.lastKnownState])).toEqual([
      [a.id, "started"],
      [b.id, "stopped"],
    ]);
    await t.clock.advance(20_000);
    expect(t.startedTasks).toEqual([TASK]);
  });
});
