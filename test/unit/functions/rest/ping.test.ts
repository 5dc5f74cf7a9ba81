import type { APIGatewayProxyResultV2 } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../../core/config/index.ts";
import { createApp, PING_RESPONSE } from "../../../../functions/rest/app.ts";
import { type HttpListener, startHttpListener } from "../../../../local/http-listener.ts";
import { apiGatewayEvent, lambdaContext } from "../../../helpers/api-gateway-event.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

function restConfig(endpointsEnable: Record<string, boolean> = {}) {
  const result = parseConfig({ Service: { restServer: { endpointsEnable } } });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config.restServer;
}

const expectedPing = { response: PING_RESPONSE, serviceVersion: "15.0.0" };

describe("GET /v4/ping", () => {
  it("answers {response, serviceVersion} in-process", async () => {
    const app = createApp({ config: restConfig({ ping: true }), logger: recordingLogger() });
    const response = await app.request("/v4/ping");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(expectedPing);
  });

  it("is not served (404 in the error shape) when its endpointsEnable key is false", async () => {
    const app = createApp({ config: restConfig({ ping: false }), logger: recordingLogger() });
    const response = await app.request("/v4/ping");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "Route GET:/v4/ping not found",
    });
  });

  describe("through a real @hono/node-server on loopback", () => {
    let listener: HttpListener;
    beforeAll(async () => {
      const logger = recordingLogger();
      const app = createApp({ config: restConfig({ ping: true }), logger });
      listener = await startHttpListener({ name: "REST API", app, host: "127.0.0.1", port: 0, logger });
    });
    afterAll(() => listener.stop());

    it("answers over HTTP", async () => {
      const response = await fetch(`${listener.url}/v4/ping`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expectedPing);
    });
  });

  it("answers through the Lambda handler with an API Gateway v2 event", async () => {
    process.env.SST_RESOURCE_StewardConfig = JSON.stringify({
      type: "sst.sst.Secret",
      value: "Service:\n  logLevel: warn\n  restServer:\n    endpointsEnable:\n      ping: true\n",
    });
    const { handler } = await import("../../../../functions/rest/handler.ts");
    const result = (await handler(
      apiGatewayEvent({ method: "GET", path: "/v4/ping" }),
      lambdaContext,
    )) as Exclude<APIGatewayProxyResultV2, string>;
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body ?? "")).toEqual(expectedPing);
  });
});
