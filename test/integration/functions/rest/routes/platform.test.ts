import type { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PlatformConnectionOptions } from "../../../../../core/adapters/platform/options.ts";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../../../../../core/adapters/platform/platform-client.ts";
import { loadPlatformTlsMaterial } from "../../../../../core/adapters/platform/tls-material.ts";
import { parseConfig } from "../../../../../core/config/index.ts";
import type { AppReloadOutcome } from "../../../../../core/platform/apps.ts";
import { systemClock } from "../../../../../core/system-clock.ts";
import { createApp } from "../../../../../functions/rest/app.ts";
import type { PlatformRoutesDeps } from "../../../../../functions/rest/routes/platform.ts";
import {
  APP_BROKEN,
  APP_SALES,
  APP_UNKNOWN,
  TAG_WITH_QUOTE,
  TASK_DISABLED,
  TASK_FINANCE,
  TASK_HR,
  TASK_SALES,
  TASK_UNKNOWN,
} from "../../../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../../../fixtures/platform/test-platform.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";
import { localEdgeDeps } from "../../../../helpers/rest-app.ts";

const ALL_ON = { appReload: true, appDump: true, appList: true, reloadTaskStart: true };
const EMPTY_RESULT = {
  tasksId: { started: [], invalid: [], denied: [] },
  tasksTag: [],
  tasksTagDenied: [],
  tasksCP: [],
  tasksCPDenied: [],
};

let sim: TestPlatform;
const clients: ClosablePlatformClient[] = [];
const stored: { namespace: string; key: string; value: string; ttlMs: number }[] = [];
let background: Promise<unknown>[] = [];

async function platformClient(
  overrides: Partial<PlatformConnectionOptions> = {},
): Promise<ClosablePlatformClient> {
  const client = createQlikPlatformClient({
    connection: sim.connection(overrides),
    tls: await loadPlatformTlsMaterial(sim.certificates),
    clock: systemClock,
    logger: recordingLogger(),
  });
  clients.push(client);
  return client;
}

interface BuildOptions {
  deps?: Partial<Omit<PlatformRoutesDeps, "logger">>;
  connection?: Partial<PlatformConnectionOptions>;
  endpointsEnable?: Partial<typeof ALL_ON>;
}

/** The whole REST app (shared middleware, errors and documentation) with the platform routes. */
async function buildApp(options: BuildOptions = {}): Promise<Hono> {
  const parsed = parseConfig({
    Service: {
      restServer: {
        endpointsEnable: { ...ALL_ON, ...options.endpointsEnable },
        rateLimit: { enable: false },
      },
      // Required by the config when platform endpoints are on; the client below gets sim.connection().
      platform: { host: "localhost" },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return createApp({
    ...localEdgeDeps(),
    config: parsed.config.restServer,
    logger: recordingLogger(),
    services: {
      platform: {
        platform: await platformClient(options.connection),
        kv: {
          set: async (namespace, key, value, ttlMs) => {
            stored.push({ namespace, key, value, ttlMs });
          },
        },
        trackBackgroundWork: (work) => background.push(work),
        ...options.deps,
      },
    },
  });
}

function send(app: Hono, method: string, path: string, body?: unknown): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method,
      ...(body === undefined
        ? {}
        : {
            body: typeof body === "string" ? body : JSON.stringify(body),
            headers: { "content-type": "application/json" },
          }),
    }),
  );
}

let app: Hono;

beforeAll(async () => {
  sim = await startTestPlatform();
  app = await buildApp();
});

afterAll(async () => {
  for (const client of clients) client.close();
  await sim?.stop();
});

beforeEach(() => {
  sim.reset();
  stored.length = 0;
  background = [];
});

describe("PUT|POST /v4/reloadtask/{taskId}/start, by task id", () => {
  it("starts a known task named in the path when no body is sent", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_SALES}/start`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ...EMPTY_RESULT,
      tasksId: { started: [{ taskId: TASK_SALES, taskName: "Reload Sales" }], invalid: [], denied: [] },
    });
    expect(sim.repository.startedTaskIds).toEqual([TASK_SALES]);
  });

  it("answers POST exactly like PUT", async () => {
    const res = await send(app, "POST", `/v4/reloadtask/${TASK_FINANCE}/start`, []);
    expect(res.status).toBe(200);
    expect(((await res.json()) as typeof EMPTY_RESULT).tasksId.started).toEqual([
      { taskId: TASK_FINANCE, taskName: "Reload Finance" },
    ]);
    expect(sim.repository.startedTaskIds).toEqual([TASK_FINANCE]);
  });

  it("ignores the path value - without asking the platform anything", async () => {
    const res = await send(app, "PUT", "/v4/reloadtask/-/start", []);
    expect(await res.json()).toEqual(EMPTY_RESULT);
    expect(sim.repository.calls).toHaveLength(0);
  });

  it("reports malformed and unknown GUIDs as invalid and starts nothing for them", async () => {
    const res = await send(app, "PUT", "/v4/reloadtask/notaguid/start", [
      { type: "starttaskid", payload: { taskId: TASK_UNKNOWN } },
      { type: "starttaskid", payload: { taskId: "a1b2c3d4-1111-4aaa-8bbb-00000000000" } },
    ]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as typeof EMPTY_RESULT).tasksId).toEqual({
      started: [],
      invalid: [
        { taskId: "notaguid" },
        { taskId: TASK_UNKNOWN },
        { taskId: "a1b2c3d4-1111-4aaa-8bbb-00000000000" },
      ],
      denied: [],
    });
    expect(sim.repository.startedTaskIds).toEqual([]);
  });

  it("accepts an upper-case GUID and starts the task it names", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_HR.toUpperCase()}/start`);
    expect(((await res.json()) as typeof EMPTY_RESULT).tasksId.started).toEqual([
      { taskId: TASK_HR, taskName: "Reload HR" },
    ]);
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });

  it("with allTaskIdsMustExist=true and an invalid id denies the existing ids but still starts tag tasks", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_UNKNOWN}/start?allTaskIdsMustExist=true`, [
      { type: "starttaskid", payload: { taskId: TASK_HR } },
      { type: "starttasktag", payload: { tag: "nightly" } },
    ]);
    const body = (await res.json()) as typeof EMPTY_RESULT;
    expect(body.tasksId).toEqual({
      started: [],
      invalid: [{ taskId: TASK_UNKNOWN }],
      denied: [{ taskId: TASK_HR }],
    });
    expect(body.tasksTag).toEqual([
      { taskId: TASK_SALES, taskName: "Reload Sales" },
      { taskId: TASK_FINANCE, taskName: "Reload Finance" },
    ]);
    expect(sim.repository.startedTaskIds).toEqual([TASK_SALES, TASK_FINANCE]);
  });

  it("with allTaskIdsMustExist=false starts the existing ids and reports the invalid ones", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_UNKNOWN}/start?allTaskIdsMustExist=false`, [
      { type: "starttaskid", payload: { taskId: TASK_HR } },
    ]);
    expect(((await res.json()) as typeof EMPTY_RESULT).tasksId).toEqual({
      started: [{ taskId: TASK_HR, taskName: "Reload HR" }],
      invalid: [{ taskId: TASK_UNKNOWN }],
      denied: [],
    });
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });
});

describe("PUT|POST /v4/reloadtask/{taskId}/start, by tag, custom property and key-value items", () => {
  it("starts each task once however many ways it is named, listing it in every list that named it", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_SALES}/start`, [
      { type: "starttaskid", payload: { taskId: TASK_SALES } },
      { type: "starttasktag", payload: { tag: "nightly" } },
      {
        type: "starttaskcustomproperty",
        payload: { customPropertyName: "Department", customPropertyValue: "Finance" },
      },
    ]);
    const body = (await res.json()) as typeof EMPTY_RESULT;
    const sales = { taskId: TASK_SALES, taskName: "Reload Sales" };
    const finance = { taskId: TASK_FINANCE, taskName: "Reload Finance" };
    expect(body).toEqual({
      ...EMPTY_RESULT,
      tasksId: { started: [sales], invalid: [], denied: [] },
      tasksTag: [sales, finance],
      tasksCP: [sales, finance],
    });
    expect(sim.repository.startedTaskIds).toEqual([TASK_SALES, TASK_FINANCE]);
  });

  it("finds tasks by a tag and a custom property value containing single quotes", async () => {
    const res = await send(app, "PUT", "/v4/reloadtask/-/start", [
      { type: "starttasktag", payload: { tag: TAG_WITH_QUOTE } },
      {
        type: "starttaskcustomproperty",
        payload: { customPropertyName: "Owner", customPropertyValue: "O'Brien" },
      },
    ]);
    const body = (await res.json()) as typeof EMPTY_RESULT;
    expect(body.tasksTag).toEqual([{ taskId: TASK_SALES, taskName: "Reload Sales" }]);
    expect(body.tasksCP).toEqual([{ taskId: TASK_FINANCE, taskName: "Reload Finance" }]);
  });

  it("stores key-value items (ttl in ms, absent = 0) before starting tasks", async () => {
    const res = await send(app, "PUT", "/v4/reloadtask/-/start", [
      { type: "keyvaluestore", payload: { namespace: "ns", key: "k1", value: "v1", ttl: 5000 } },
      { type: "keyvaluestore", payload: { namespace: "ns", key: "k2", value: "v2" } },
    ]);
    expect(res.status).toBe(200);
    expect(stored).toEqual([
      { namespace: "ns", key: "k1", value: "v1", ttlMs: 5000 },
      { namespace: "ns", key: "k2", value: "v2", ttlMs: 0 },
    ]);
  });

  it("ignores key-value items when the key-value store is disabled", async () => {
    const noStore = await buildApp({ deps: { kv: undefined } });
    const res = await send(noStore, "PUT", `/v4/reloadtask/${TASK_HR}/start`, [
      { type: "keyvaluestore", payload: { namespace: "ns", key: "k", value: "v" } },
    ]);
    expect(res.status).toBe(200);
    expect(stored).toEqual([]);
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });
});

describe("PUT|POST /v4/reloadtask/{taskId}/start, refused", () => {
  it.each([
    ["an object body", {}, /^body: body must be an array/],
    [
      "an unknown item type",
      [{ type: "starttasktags", payload: { tag: "x" } }],
      /^body\/0\/type: type must be one of/,
    ],
    ["an item without payload", [{ type: "starttaskid" }], /^body\/0\/payload: /],
    [
      "an empty tag",
      [{ type: "starttasktag", payload: { tag: "" } }],
      /^body\/0\/payload\/tag: tag must not be empty/,
    ],
    ["malformed JSON", "[{", /^Malformed JSON body$/],
  ])("refuses %s with 400", async (_what, body, message) => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_SALES}/start`, body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as { statusCode: number; error: string; message: string };
    expect(error).toMatchObject({ statusCode: 400, error: "Bad Request" });
    expect(error.message).toMatch(message);
    expect(sim.repository.startedTaskIds).toEqual([]);
  });

  it("refuses allTaskIdsMustExist values other than true/false with 400", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_SALES}/start?allTaskIdsMustExist=yes`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /allTaskIdsMustExist must be true or false/,
    );
  });

  it("answers 502 and starts nothing when the platform answers 500", async () => {
    sim.repository.fault = "status500";
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_SALES}/start`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      statusCode: 502,
      error: "Bad Gateway",
      message: expect.stringMatching(/repository answered GET \/qrs\/task\/full with HTTP 500/),
    });
  });

  it("answers 502 naming the task the platform would not start, and what did start", async () => {
    const res = await send(app, "PUT", `/v4/reloadtask/${TASK_DISABLED}/start`, [
      { type: "starttaskid", payload: { taskId: TASK_HR } },
    ]);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toBe(
      `The platform did not start task(s) ${TASK_DISABLED} (The platform did not start task ${TASK_DISABLED} (task disabled, no scheduler available or app missing)); started: ${TASK_HR}`,
    );
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });

  it("answers 502 within the timeout when the platform never answers", async () => {
    const impatient = await buildApp({ connection: { timeoutMs: 300 } });
    sim.repository.fault = "hang";
    const res = await send(impatient, "PUT", `/v4/reloadtask/${TASK_SALES}/start`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/did not answer .* within 300 ms/);
  });

  it("answers 502 with the reason when the platform closes the connection", async () => {
    sim.repository.fault = "closeSocket";
    const res = await send(app, "PUT", "/v4/reloadtask/-/start", [
      { type: "starttasktag", payload: { tag: "hr" } },
    ]);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/closed the connection/);
  });
});

describe("PUT /v4/app/{appId}/reload", () => {
  it("answers 202 at once, then reloads, saves and starts the on-success tasks", async () => {
    const res = await send(app, "PUT", `/v4/app/${APP_SALES}/reload`, {
      reloadMode: 1,
      partialReload: true,
      startPlatformTaskOnSuccess: [TASK_SALES, TASK_FINANCE],
      startPlatformTaskOnFailure: [TASK_HR],
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ appId: APP_SALES });
    const [outcome] = (await Promise.all(background)) as AppReloadOutcome[];
    expect(outcome).toEqual({
      appId: APP_SALES,
      reloaded: true,
      startedTaskIds: [TASK_SALES, TASK_FINANCE],
      failedTaskIds: [],
    });
    expect(sim.engine.calls.map((c) => c.method)).toEqual(["OpenDoc", "DoReload", "DoSave"]);
    expect(sim.engine.calls[1]?.params).toEqual({ qMode: 1, qPartial: true, qDebug: false });
    expect(sim.repository.startedTaskIds).toEqual([TASK_SALES, TASK_FINANCE]);
  });

  it("starts the on-failure tasks, and does not save, when the reload fails", async () => {
    const res = await send(app, "PUT", `/v4/app/${APP_BROKEN}/reload`, {
      startPlatformTaskOnSuccess: [TASK_SALES],
      startPlatformTaskOnFailure: [TASK_HR],
    });
    expect(res.status).toBe(202);
    await Promise.all(background);
    expect(sim.engine.calls.map((c) => c.method)).toEqual(["OpenDoc", "DoReload"]);
    expect(sim.engine.calls[1]?.params).toEqual({ qMode: 0, qPartial: false, qDebug: false });
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });

  it("treats an engine that closes the socket mid-reload as a failed reload", async () => {
    sim.engine.fault = { method: "DoReload", kind: "closeSocket" };
    const res = await send(app, "PUT", `/v4/app/${APP_SALES}/reload`, {
      startPlatformTaskOnFailure: [TASK_HR],
    });
    expect(res.status).toBe(202);
    const [outcome] = (await Promise.all(background)) as AppReloadOutcome[];
    expect(outcome?.reloaded).toBe(false);
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });

  it("answers 404 for an app the platform does not know, reloading nothing", async () => {
    const res = await send(app, "PUT", `/v4/app/${APP_UNKNOWN}/reload`, {});
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: `App ${APP_UNKNOWN} not found on the platform`,
    });
    expect(sim.engine.calls).toHaveLength(0);
  });

  it.each([
    ["a malformed app id", "not-a-guid", {}, /^params\/appId: appId must be a GUID/],
    [
      "a reloadMode outside 0..2",
      APP_SALES,
      { reloadMode: 5 },
      /^body\/reloadMode: reloadMode must be 0, 1 or 2/,
    ],
    ["a non-boolean partialReload", APP_SALES, { partialReload: "yes" }, /partialReload must be a boolean/],
  ])("refuses %s with 400", async (_what, appId, body, message) => {
    const res = await send(app, "PUT", `/v4/app/${appId}/reload`, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(message);
  });

  it("answers 502 when the platform is unreachable", async () => {
    const nowhere = await buildApp({ connection: { repositoryPort: 1 } });
    const res = await send(nowhere, "PUT", `/v4/app/${APP_SALES}/reload`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/unreachable: .*ECONNREFUSED/);
  });
});

describe("app dump and list", () => {
  it("dumps an app identically on both paths", async () => {
    const first = await send(app, "GET", `/v4/platformappdump/${APP_SALES}`);
    const second = await send(app, "GET", `/v4/app/${APP_SALES}/dump`);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const dump = (await first.json()) as Record<string, unknown>;
    expect(dump).toMatchObject({ appId: APP_SALES, properties: { qTitle: "Sales dashboard" } });
    expect(await second.json()).toEqual(dump);
  });

  it("answers 404 for an unknown app and 400 for a malformed id", async () => {
    expect((await send(app, "GET", `/v4/app/${APP_UNKNOWN}/dump`)).status).toBe(404);
    expect((await send(app, "GET", "/v4/platformappdump/x'y")).status).toBe(400);
  });

  it("answers 502 when the engine sends malformed JSON", async () => {
    sim.engine.fault = { method: "GetAppProperties", kind: "malformedJson" };
    const res = await send(app, "GET", `/v4/app/${APP_SALES}/dump`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/sent malformed JSON/);
  });

  it("lists apps as id and name on both paths", async () => {
    const expected = [
      { id: APP_SALES, name: "Sales dashboard" },
      { id: APP_BROKEN, name: "Broken script" },
    ];
    expect(await (await send(app, "GET", "/v4/platformlistapps")).json()).toEqual(expected);
    expect(await (await send(app, "GET", "/v4/apps/list")).json()).toEqual(expected);
  });

  it("answers 502 within the timeout when the engine never answers", async () => {
    const impatient = await buildApp({ connection: { timeoutMs: 300 } });
    sim.engine.fault = { method: "GetDocList", kind: "hang" };
    const res = await send(impatient, "GET", "/v4/apps/list");
    expect(res.status).toBe(502);
  });
});

describe("endpoint enablement", () => {
  it("does not serve an endpoint whose endpointsEnable key is false", async () => {
    const none = await buildApp({
      endpointsEnable: { appReload: false, appDump: false, appList: false, reloadTaskStart: false },
    });
    const paths: [string, string][] = [
      ["PUT", `/v4/app/${APP_SALES}/reload`],
      ["GET", `/v4/platformappdump/${APP_SALES}`],
      ["GET", `/v4/app/${APP_SALES}/dump`],
      ["GET", "/v4/platformlistapps"],
      ["GET", "/v4/apps/list"],
      ["PUT", `/v4/reloadtask/${TASK_SALES}/start`],
      ["POST", `/v4/reloadtask/${TASK_SALES}/start`],
    ];
    for (const [method, path] of paths) expect((await send(none, method, path)).status).toBe(404);
    expect(sim.repository.calls).toHaveLength(0);
    expect(sim.engine.calls).toHaveLength(0);
  });

  it("serves only the enabled groups", async () => {
    const listOnly = await buildApp({
      endpointsEnable: { appReload: false, appDump: false, appList: true, reloadTaskStart: false },
    });
    expect((await send(listOnly, "GET", "/v4/apps/list")).status).toBe(200);
    expect((await send(listOnly, "PUT", `/v4/reloadtask/${TASK_SALES}/start`)).status).toBe(404);
  });
});

describe("shared REST behaviour", () => {
  it("answers a platform endpoint with the security headers every REST response carries", async () => {
    const res = await send(app, "GET", "/v4/apps/list");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("carries the security headers on platform errors too", async () => {
    const res = await send(app, "GET", "/v4/platformappdump/x'y");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("documents the platform endpoints in /documentation/json with their request schemas", async () => {
    const res = await send(app, "GET", "/documentation/json");
    type Operation = {
      requestBody?: { required: boolean; content: { "application/json": { schema: Schema } } };
    };
    type Schema = { items?: { oneOf: unknown[] }; properties?: Record<string, unknown> };
    const document = (await res.json()) as { paths: Record<string, Record<string, Operation>> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/v4/app/{appId}/reload",
        "/v4/platformappdump/{appId}",
        "/v4/app/{appId}/dump",
        "/v4/platformlistapps",
        "/v4/apps/list",
        "/v4/reloadtask/{taskId}/start",
      ]),
    );
    const start = document.paths["/v4/reloadtask/{taskId}/start"] ?? {};
    expect(Object.keys(start).sort()).toEqual(["post", "put"]);
    expect(start.put?.requestBody?.required).toBe(false);
    const items = start.put?.requestBody?.content["application/json"].schema.items;
    expect(items?.oneOf).toHaveLength(4);
    expect(items?.oneOf[0]).toMatchObject({
      properties: { type: { enum: ["keyvaluestore"] }, payload: { required: ["namespace", "key", "value"] } },
    });
    const reload =
      document.paths["/v4/app/{appId}/reload"]?.put?.requestBody?.content["application/json"].schema;
    expect(reload?.properties?.reloadMode).toEqual({ type: "integer", enum: [0, 1, 2] });
  });

  it("leaves disabled platform endpoints out of the document", async () => {
    const listOnly = await buildApp({
      endpointsEnable: { appReload: false, appDump: false, appList: true, reloadTaskStart: false },
    });
    const document = (await (await send(listOnly, "GET", "/documentation/json")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(document.paths["/v4/apps/list"]).toBeDefined();
    expect(document.paths["/v4/reloadtask/{taskId}/start"]).toBeUndefined();
  });

  it("describes every invalid member of a task start body in one 400 message", async () => {
    const res = await send(app, "PUT", "/v4/reloadtask/-/start", [
      { type: "keyvaluestore", payload: { namespace: "", key: "k", value: 1, ttl: -1 } },
    ]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      "body/0/payload/namespace: namespace must not be empty; body/0/payload/value: value must be a string; body/0/payload/ttl: ttl must be >= 0",
    );
  });

  it("refuses a non-empty body that is not JSON with 415, and starts nothing", async () => {
    const res = await app.request(`/v4/reloadtask/${TASK_SALES}/start`, {
      method: "PUT",
      body: "[]",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(sim.repository.startedTaskIds).toEqual([]);
  });
});
