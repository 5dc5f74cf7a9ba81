import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RecordedResource, runSstConfig, type SstStub } from "../../helpers/sst-stub.ts";

describe("sst.config.ts", () => {
  let stub: SstStub;
  let app: Record<string, unknown>;
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    ({ stub, app, outputs } = await runSstConfig("production"));
  });
  afterAll(() => stub.uninstall());

  const routes = (api: RecordedResource) =>
    new Map(api.calls.filter((call) => call.method === "route").map((call) => [call.args[0], call.args[1]]));

  it("names the app and protects and retains the production stage", () => {
    expect(app).toMatchObject({ name: "steward", home: "aws", protect: true, removal: "retain" });
  });

  it("defines one HTTP API without gateway CORS (the apps own CORS) and outputs its URL", () => {
    const api = stub.find("aws.ApiGatewayV2", "Api");
    expect(api.args).toEqual({ cors: false });
    expect(outputs.api).toBe("aws.ApiGatewayV2:Api.url");
    expect(stub.resources.filter((resource) => resource.kind === "aws.ApiGatewayV2")).toEqual([api]);
  });

  it("routes GET /v4/ping to the REST handler on Node 20 with the config secret linked", () => {
    const ping = routes(stub.find("aws.ApiGatewayV2", "Api")).get("GET /v4/ping") as {
      handler: string;
      runtime: string;
      link: RecordedResource[];
    };
    expect(ping).toMatchObject({ handler: "functions/rest/handler.handler", runtime: "nodejs20.x" });
    stub.find("Secret", "StewardConfig");
    expect(ping.link.map((linked) => `${linked.kind} ${linked.name}`)).toContain("Secret StewardConfig");
  });

  it("declares each route once and sends both documentation paths to the REST handler", () => {
    const api = stub.find("aws.ApiGatewayV2", "Api");
    const declared = api.calls
      .filter((call) => call.method === "route")
      .map((call) => call.args[0] as string);
    expect(declared.length).toBe(new Set(declared).size);
    const all = routes(api);
    for (const path of ["GET /documentation/json", "GET /documentation"]) {
      expect(all.get(path)).toMatchObject({ handler: "functions/rest/handler.handler" });
    }
  });
});
