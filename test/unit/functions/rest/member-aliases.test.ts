/**
 * Request members Steward renamed are accepted under Butler's names (qlikSenseTaskId,
 * startQSEoWTaskOnSuccess/OnFailure); Steward's name wins when both are given, and answers use
 * Steward's names only.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../../../core/config/index.ts";
import type { AppReloadOptions, PlatformClient } from "../../../../core/ports.ts";
import { createApp } from "../../../../functions/rest/app.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { json, localEdgeDeps } from "../../../helpers/rest-app.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

const TASK = "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1";
const OTHER_TASK = "0b6f2b4e-1c1d-4d3e-9a7b-2f7c1d2e3f4a";

describe("POST /v4/schedules with Butler's qlikSenseTaskId", () => {
  const t = restTestAppForSuite({}, { perTest: true });

  const base = {
    name: "Nightly",
    cronSchedule: "0 2 * * *",
    timezone: "Europe/Stockholm",
    startupState: "stopped",
  };
  const post = (body: unknown) => t.app.request("/v4/schedules", json("POST", body));

  it("accepts qlikSenseTaskId when platformTaskId is absent, and answers with platformTaskId only", async () => {
    const response = await post({ ...base, qlikSenseTaskId: TASK });
    expect(response.status).toBe(201);
    const [created] = (await response.json()) as Record<string, unknown>[];
    expect(created).toMatchObject({ ...base, platformTaskId: TASK });
    expect(created).not.toHaveProperty("qlikSenseTaskId");
    const listed = (await (await t.app.request("/v4/schedules")).json()) as Record<string, unknown>[];
    expect(listed.map((s) => s.platformTaskId)).toEqual([TASK]);
    expect(listed[0]).not.toHaveProperty("qlikSenseTaskId");
  });

  it("takes platformTaskId when both are given, without checking the ignored alias", async () => {
    const response = await post({ ...base, platformTaskId: TASK, qlikSenseTaskId: "not-a-uuid" });
    expect(response.status).toBe(201);
    const [created] = (await response.json()) as Record<string, unknown>[];
    expect(created?.platformTaskId).toBe(TASK);
  });

  it("checks the alias like the member it stands for, naming Steward's member", async () => {
    const response = await post({ ...base, qlikSenseTaskId: "not-a-uuid" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^body\/platformTaskId: must be a UUID/,
    );
  });

  it("still requires one of the two", async () => {
    const response = await post(base);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(
      "body/platformTaskId: required",
    );
  });

  it("still refuses a body that is not an object", async () => {
    const response = await post([{ ...base, qlikSenseTaskId: TASK }]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      "body: Invalid type: Expected Object but received Array",
    );
  });

  it("documents the alias in the OpenAPI document", async () => {
    const document = (await (await t.app.request("/documentation/json")).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const schema = document.paths["/v4/schedules"]?.post?.requestBody.content["application/json"]?.schema;
    expect(JSON.stringify(schema)).toContain("qlikSenseTaskId for platformTaskId");
  });
});

describe("PUT /v4/app/{appId}/reload with Butler's startQSEoWTask* members", () => {
  const APP = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
  let reloads: { appId: string; options: AppReloadOptions }[];
  let started: string[];
  let background: Promise<unknown>[];

  /** A platform that knows one app, whose reload succeeds when `succeeds` says so. */
  function stubPlatform(succeeds: boolean): PlatformClient {
    const unused = () => Promise.reject(new Error("not used"));
    return {
      findTaskById: unused,
      findTasksByTag: unused,
      findTasksByCustomProperty: unused,
      startTask: async (taskId) => {
        started.push(taskId);
      },
      findAppById: async (appId) => (appId === APP ? { id: APP, name: "Sales" } : undefined),
      listApps: unused,
      listRepositoryApps: unused,
      reloadApp: async (appId, options) => {
        reloads.push({ appId, options });
        return succeeds;
      },
      dumpApp: unused,
    };
  }

  function appWith(platform: PlatformClient) {
    const parsed = parseConfig({
      Service: {
        restServer: { endpointsEnable: { appReload: true }, rateLimit: { enable: false } },
        platform: { host: "localhost" },
      },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return createApp({
      ...localEdgeDeps(),
      config: parsed.config.restServer,
      logger: recordingLogger(),
      services: { platform: { platform, trackBackgroundWork: (work) => background.push(work) } },
    });
  }

  beforeEach(() => {
    reloads = [];
    started = [];
    background = [];
  });

  it("starts the startQSEoWTaskOnSuccess tasks after a successful reload", async () => {
    const app = appWith(stubPlatform(true));
    const response = await app.request(
      `/v4/app/${APP}/reload`,
      json("PUT", { startQSEoWTaskOnSuccess: [TASK], startQSEoWTaskOnFailure: [OTHER_TASK] }),
    );
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ appId: APP });
    await Promise.all(background);
    expect(reloads).toHaveLength(1);
    expect(started).toEqual([TASK]);
  });

  it("starts the startQSEoWTaskOnFailure tasks after a failed reload", async () => {
    const app = appWith(stubPlatform(false));
    await app.request(`/v4/app/${APP}/reload`, json("PUT", { startQSEoWTaskOnFailure: [OTHER_TASK] }));
    await Promise.all(background);
    expect(started).toEqual([OTHER_TASK]);
  });

  it("prefers Steward's member when both names are given", async () => {
    const app = appWith(stubPlatform(true));
    await app.request(
      `/v4/app/${APP}/reload`,
      json("PUT", { startPlatformTaskOnSuccess: [TASK], startQSEoWTaskOnSuccess: [OTHER_TASK] }),
    );
    await Promise.all(background);
    expect(started).toEqual([TASK]);
  });

  it("still answers 202 to an empty body", async () => {
    const app = appWith(stubPlatform(true));
    const response = await app.request(`/v4/app/${APP}/reload`, { method: "PUT" });
    expect(response.status).toBe(202);
    await Promise.all(background);
    expect(started).toEqual([]);
  });
});
