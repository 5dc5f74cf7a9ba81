import { describe, expect, it } from "vitest";
import { swaggerUiAssets } from "../../../../core/adapters/swagger-ui-assets.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { SERVICE_VERSION } from "../../../../core/version.ts";
import { buildIngestOpenApi } from "../../../../functions/audit-ingest/openapi.ts";
import { createApp, PING_RESPONSE } from "../../../../functions/rest/app.ts";
import { includeOpenApi } from "../../../../functions/rest/openapi.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { createRestTestApp, json, localEdgeDeps, removeDir } from "../../../helpers/rest-app.ts";
import { createSteppingClock } from "../../../helpers/stepping-clock.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

const t = restTestAppForSuite();

function restConfig(restServer: Record<string, unknown>) {
  const parsed = parseConfig({ Service: { restServer } });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config.restServer;
}

describe("system endpoints", () => {
  it("lists the served endpoint keys in config order", async () => {
    const response = await t.app.request("/v4/configfile/endpointsenabled");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      "apiListEnabledEndpoints",
      "ping",
      "base62ToBase16",
      "base16ToBase62",
      "fileCopy",
      "fileMove",
      "fileDelete",
      "createDirTableData",
      "createDir",
      "keyValueStore",
      "scheduleCreate",
      "scheduleGet",
      "scheduleDelete",
      "scheduleStart",
      "scheduleStop",
      "scheduleStatus",
    ]);
  });

  it("omits enabled endpoints whose service is not wired (files in Lambda) and warns once", async () => {
    const logger = recordingLogger();
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ endpointsEnable: { fileCopy: true, mqttPublishMessage: true } }),
      logger,
      clientIp: () => "x",
    });
    const listed = (await (await app.request("/v4/configfile/endpointsenabled")).json()) as string[];
    expect(listed).not.toContain("fileCopy");
    expect(listed).not.toContain("mqttPublishMessage");
    expect((await app.request("/v4/filecopy", json("PUT", {}))).status).toBe(404);
    const warned = String(logger.at("warn")[0]?.fields?.endpoints).split(",");
    expect(warned).toEqual(expect.arrayContaining(["fileCopy", "mqttPublishMessage", "keyValueStore"]));
  });

  it("answers ping with the service version", async () => {
    const response = await t.app.request("/v4/ping");
    expect(await response.json()).toEqual({ response: PING_RESPONSE, serviceVersion: "15.0.0" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it.each([
    [
      "/v4/base62tobase16?base62=6DMW88LpSok9Z7P7hUK0wv7bF",
      { base62: "6DMW88LpSok9Z7P7hUK0wv7bF", base16: "3199af08bfeeaf5d420f27ed9c01e74370077" },
    ],
    ["/v4/base16tobase62?base16=00ff", { base62: "47", base16: "00ff" }],
    ["/v4/base62tobase16?base62=", { base62: "", base16: "0" }],
  ])("converts %s", async (url, expected) => {
    const response = await t.app.request(url);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected);
  });

  it.each([
    ["/v4/base16tobase62?base16=ABCDEF", "Invalid base16 digit 'A'"],
    ["/v4/base62tobase16?base62=a-b", "Invalid base62 digit '-'"],
    ["/v4/base62tobase16", "querystring/base62: required"],
    [`/v4/base16tobase62?base16=${"f".repeat(5000)}`, "querystring/base16: at most 4096 digits"],
  ])("answers 400 for %s", async (url, message) => {
    const response = await t.app.request(url);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, error: "Bad Request", message });
  });

  it("answers 404 in the error shape for a disabled endpoint and an unknown route", async () => {
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ endpointsEnable: { ping: false } }),
      logger: recordingLogger(),
    });
    const response = await app.request("/v4/ping");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "Route GET:/v4/ping not found",
    });
    expect((await t.app.request("/v4/nothing")).status).toBe(404);
  });
});

describe("cross-cutting behaviour", () => {
  it("requires the bearer token on /v4 when apiToken is set (401), comparing it exactly", async () => {
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ apiToken: "s3cret-token" }),
      logger: recordingLogger(),
    });
    const missing = await app.request("/v4/ping");
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ statusCode: 401, error: "Unauthorized", message: "Unauthorized" });
    expect((await app.request("/v4/ping", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect(
      (await app.request("/v4/ping", { headers: { authorization: "Bearer s3cret-token" } })).status,
    ).toBe(200);
  });

  it("refuses a browser origin not in restServer.cors.allowedOrigins with 403 and allows a listed one", async () => {
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ cors: { allowedOrigins: ["https://sense.example.com"] } }),
      logger: recordingLogger(),
    });
    const refused = await app.request("/v4/ping", { headers: { origin: "https://evil.example.com" } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe("Forbidden");
    const preflight = await app.request("/v4/keyvalues/ns", {
      method: "OPTIONS",
      headers: { origin: "https://sense.example.com", "access-control-request-method": "DELETE" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, DELETE, OPTIONS");
  });

  it("rate-limits per client IP with headers, then 429 with retry-after", async () => {
    const clock = createSteppingClock(Date.UTC(2026, 0, 1, 0, 0, 30));
    let ip = "198.51.100.1";
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ rateLimit: { enable: true, maxPerMinute: 2 } }),
      logger: recordingLogger(),
      clock,
      clientIp: () => ip,
    });
    const first = await app.request("/v4/ping");
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(first.headers.get("x-ratelimit-reset")).toBe(String(Date.UTC(2026, 0, 1, 0, 1) / 1000));
    await app.request("/v4/ping");
    const limited = await app.request("/v4/ping");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(((await limited.json()) as { error: string }).error).toBe("Too Many Requests");
    ip = "198.51.100.2";
    expect((await app.request("/v4/ping")).status).toBe(200);
  });

  it("answers 415 for a non-JSON body, 400 for malformed JSON and 413 for a body over maxBodyBytes", async () => {
    const small = await createRestTestApp({ restServer: { maxBodyBytes: 100 } });
    const notJson = await small.app.request("/v4/keyvalues/ns", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "k=v",
    });
    expect(notJson.status).toBe(415);
    expect(((await notJson.json()) as { error: string }).error).toBe("Unsupported Media Type");
    const malformed = await small.app.request("/v4/keyvalues/ns", json("POST", '{"key": "k", '));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: "Malformed JSON body",
    });
    const huge = await small.app.request(
      "/v4/keyvalues/ns",
      json("POST", { key: "k", value: "x".repeat(200) }),
    );
    expect(huge.status).toBe(413);
    expect(await small.kv.listNamespaces()).toEqual([]);
    await small.close();
    await removeDir(small.dir);
  });

  it("honours X-HTTP-Method-Override: DELETE and PUT on POST, and refuses other overrides", async () => {
    await t.kv.set("override", "a", "1");
    const deleted = await t.app.request("/v4/keyvalues/override/a", {
      method: "POST",
      headers: { "x-http-method-override": "DELETE" },
    });
    expect(deleted.status).toBe(204);
    expect(await t.kv.get("override", "a")).toBeUndefined();
    const created = await t.app.request(
      "/v4/createdir",
      json("POST", { directory: t.path("made", "by", "put") }),
    );
    expect(created.status).toBe(201);
    const put = await t.app.request(
      "/v4/schedules/stopall",
      json("POST", {}, { "x-http-method-override": "put" }),
    );
    expect(put.status).toBe(200);
    const refused = await t.app.request("/v4/ping", {
      method: "POST",
      headers: { "x-http-method-override": "GET" },
    });
    expect(refused.status).toBe(400);
  });

  it("logs requests at verbose without headers, query strings or bodies", async () => {
    t.logger.entries.length = 0;
    await t.app.request("/v4/keyvalues/ns/keyexists?key=secret-key", {
      headers: { authorization: "Bearer tok" },
    });
    const entry = t.logger.entries.find((e) => e.message === "REST request");
    expect(entry?.level).toBe("verbose");
    expect(entry?.fields).toMatchObject({
      method: "GET",
      path: "/v4/keyvalues/ns/keyexists",
      status: 200,
      ip: "192.0.2.1",
    });
    expect(JSON.stringify(t.logger.entries)).not.toContain("secret-key");
    expect(JSON.stringify(t.logger.entries)).not.toContain("Bearer tok");
  });
});

describe("security headers", () => {
  it.each([
    ["a route answer", "/v4/ping", {}],
    ["a validation error", "/v4/base16tobase62?base16=XYZ", {}],
    ["an unknown route", "/v4/nothing", {}],
    ["a 204", "/v4/keyvalues/none", { method: "DELETE" }],
    ["the OpenAPI document", "/documentation/json", {}],
  ] as const)("are on %s", async (_name, url, init) => {
    const response = await t.app.request(url, init);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });
});

describe("documentation with a token", () => {
  it("requires the token for the OpenAPI document too (it lists the served endpoints), not for the explorer page and its files", async () => {
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ apiToken: "s3cret-token" }),
      logger: recordingLogger(),
      explorerAssets: swaggerUiAssets(),
    });

    const missing = await app.request("/documentation/json");
    const wrong = await app.request("/documentation/json", { headers: { authorization: "Bearer wrong" } });
    const right = await app.request("/documentation/json", {
      headers: { authorization: "Bearer s3cret-token" },
    });
    const page = await app.request("/documentation");

    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ statusCode: 401, error: "Unauthorized", message: "Unauthorized" });
    expect(wrong.status).toBe(401);
    expect(right.status).toBe(200);
    expect(Object.keys(((await right.json()) as { paths: object }).paths)).toContain("/v4/ping");
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("/v4/ping");
    for (const file of ["explorer.js", "swagger-ui-bundle.js", "swagger-ui.css"]) {
      expect((await app.request(`/documentation/assets/${file}`)).status).toBe(200);
    }
  });
});

describe("documentation", () => {
  it("serves an OpenAPI 3.0 document generated from the request schemas", async () => {
    const response = await t.app.request("/documentation/json");
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    expect(document.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(document.paths)).toContain("/v4/keyvalues/{namespace}");
    expect(
      document.paths["/v4/keyvalues/{namespace}"]?.post?.requestBody?.content["application/json"]?.schema,
    ).toMatchObject({
      type: "object",
      required: ["key", "value"],
      properties: {
        key: { type: "string", minLength: 1 },
        value: { type: "string" },
        ttl: { type: "integer", minimum: 0 },
      },
    });
    expect(document.paths["/v4/schedules"]?.post).toBeDefined();
  });

  it("serves the API explorer page on the OpenAPI document, loading only files of its own origin", async () => {
    const response = await t.app.request("/documentation");
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('data-openapi="/documentation/json"');
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.sort()).toEqual([
      "/documentation/assets/explorer.js",
      "/documentation/assets/swagger-ui-bundle.js",
      "/documentation/assets/swagger-ui.css",
    ]);
    expect(html).not.toMatch(/<script>|<style|https?:\/\//);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it.each([
    ["swagger-ui-bundle.js", /^text\/javascript/, "SwaggerUIBundle"],
    ["swagger-ui.css", /^text\/css/, ".swagger-ui"],
    ["explorer.js", /^text\/javascript/, "data-openapi"],
  ])("serves the explorer file %s from the installed package", async (name, type, text) => {
    const response = await t.app.request(`/documentation/assets/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    expect(await response.text()).toContain(text);
  });

  it.each(["index.html", "package.json", "..%2Fpackage.json", "swagger-ui.js.map"])(
    "answers 404 for any other explorer file (%s)",
    async (name) => {
      expect((await t.app.request(`/documentation/assets/${name}`)).status).toBe(404);
    },
  );
});

describe("documentation of the ingest API", () => {
  it("includes the ingest API's operations and components exactly as the ingest app generates them", async () => {
    const ingest = buildIngestOpenApi(SERVICE_VERSION) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, unknown> };
    };
    const document = (await (await t.app.request("/documentation/json")).json()) as typeof ingest;
    for (const [path, operations] of Object.entries(ingest.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        expect(document.paths[path]?.[method]).toMatchObject({ ...op, tags: ["Audit events"] });
      }
    }
    expect(document.paths["/api/v1/audit-event"]?.post?.security).toEqual([{ bearer: [] }, {}]);
    for (const [name, schema] of Object.entries(ingest.components.schemas)) {
      expect(document.components.schemas[name]).toEqual(schema);
    }
    expect(document.components.schemas.Error).toBeDefined();
    expect(document.paths["/v4/ping"]).toBeDefined();
  });

  it("refuses to merge documents that define the same path twice", () => {
    const base = { paths: { "/a": { get: {} } }, components: {} };
    expect(() => includeOpenApi(base, { paths: { "/a": { post: {} } } }, "X")).toThrow(
      /\/a is defined by both/,
    );
  });
});
