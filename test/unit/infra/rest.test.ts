import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { buildRestOpenApi } from "../../../functions/rest/openapi.ts";
import { createRestTestApp, removeDir } from "../../helpers/rest-app.ts";
import {
  componentLabel,
  installSstStub,
  type RecordedResource,
  type SstStub,
} from "../../helpers/sst-stub.ts";

describe("infra/rest.ts", () => {
  let stub: SstStub;
  let routes: Map<unknown, unknown>;

  beforeAll(async () => {
    stub = installSstStub("test");
    // Computed specifier: infra files are evaluated under the SST stub, not type-checked here.
    const modulePath = "../../../infra/rest.ts";
    await import(modulePath);
    const api = stub.find("aws.ApiGatewayV2", "Api");
    routes = new Map(
      api.calls.filter((call) => call.method === "route").map((call) => [call.args[0], call.args[1]]),
    );
  });
  afterAll(() => stub.uninstall());

  it("defines the key-value table (pk/sk, TTL on expiresAt) and the schedule table (id, TTL on the locks' expiresAt)", () => {
    expect(stub.find("aws.Dynamo", "KeyValueTable").args).toEqual({
      fields: { pk: "string", sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      ttl: "expiresAt",
    });
    expect(stub.find("aws.Dynamo", "ScheduleTable").args).toEqual({
      fields: { id: "string" },
      primaryIndex: { hashKey: "id" },
      ttl: "expiresAt",
    });
  });

  it("routes exactly the app's non-file /v4 operations and both documentation paths, plus POST twins for method override", async () => {
    const t = await createRestTestApp({
      services: {
        broker: { publish: async () => {}, close: async () => {} },
        observability: {
          postEvent: async () => ({ observabilityResultCode: "202", observabilityResultText: "" }),
          postMetric: async () => ({ observabilityResultCode: "202", observabilityResultText: "" }),
        },
        chat: { postMessage: async () => {} },
      },
    });
    const document = (await (await t.app.request("/documentation/json")).json()) as ReturnType<
      typeof buildRestOpenApi
    >;
    await t.close();
    await removeDir(t.dir);
    const appRoutes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const fileRoutes = [
      "PUT /v4/filecopy",
      "PUT /v4/filemove",
      "DELETE /v4/filedelete",
      "POST /v4/createdirqvd",
      "POST /v4/createdir",
    ];
    // The document also describes the ingest API (/api/v1), which the ingest function serves.
    const expected = [
      ...appRoutes.filter((route) => route.includes(" /v4/") && !fileRoutes.includes(route)),
      "GET /documentation/json",
      "GET /documentation",
      "GET /documentation/assets/{name}",
    ];
    expect(appRoutes).toContain("POST /api/v1/audit-event");
    const routed = [...routes.keys()] as string[];
    expect(routed.filter((route) => expected.includes(route)).sort()).toEqual([...expected].sort());
    const twins = routed.filter((route) => !expected.includes(route));
    expect(twins.sort()).toEqual(
      [
        "POST /v4/chatpostmessage",
        "POST /v4/keyvalues/{namespace}/{key}",
        "POST /v4/mqttpublishmessage",
        "POST /v4/schedules/startall",
        "POST /v4/schedules/stopall",
        "POST /v4/schedules/{scheduleId}",
        "POST /v4/schedules/{scheduleId}/start",
        "POST /v4/schedules/{scheduleId}/stop",
      ].sort(),
    );
  });

  it("runs every route on one REST function, Node 24 on arm64, linked to config, kv, schedule and rate-limit tables", () => {
    expect(new Set(routes.values())).toEqual(new Set(["aws.Function:Rest.arn"]));
    const fn = stub.find("aws.Function", "Rest").args as { handler: string; link: RecordedResource[] };
    expect(fn).toMatchObject({
      handler: "functions/rest/handler.handler",
      runtime: "nodejs24.x",
      architecture: "arm64",
      // The API explorer reads Swagger UI's files from the package at run time.
      nodejs: { format: "esm", minify: true, install: ["swagger-ui-dist"] },
    });
    expect(fn.link.map(componentLabel)).toEqual([
      "Secret StewardConfig",
      "aws.Dynamo KeyValueTable",
      "aws.Dynamo ScheduleTable",
      "aws.Dynamo RateLimitTable",
    ]);
  });
});
