import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../../core/config/index.ts";
import { createApp, PING_RESPONSE } from "../../../../functions/rest/app.ts";
import { type HttpListener, startHttpListener } from "../../../../local/http/http-listener.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { localEdgeDeps } from "../../../helpers/rest-app.ts";

function restConfig(endpointsEnable: Record<string, boolean> = {}) {
  const result = parseConfig({ Service: { restServer: { endpointsEnable } } });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config.restServer;
}

const expectedPing = { response: PING_RESPONSE, serviceVersion: "15.0.0" };

describe("GET /v4/ping", () => {
  it("answers {response, serviceVersion} in-process", async () => {
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ ping: true }),
      logger: recordingLogger(),
    });
    const response = await app.request("/v4/ping");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(expectedPing);
  });

  it("is not served (404 in the error shape) when its endpointsEnable key is false", async () => {
    const app = createApp({
      ...localEdgeDeps(),
      config: restConfig({ ping: false }),
      logger: recordingLogger(),
    });
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
      const app = createApp({
        ...localEdgeDeps(),
        config: restConfig({ ping: true }),
        logger,
      });
      listener = await startHttpListener({ name: "REST API", app, host: "127.0.0.1", port: 0, logger });
    });
    afterAll(() => listener.stop());

    it("answers over HTTP", async () => {
      const response = await fetch(`${listener.url}/v4/ping`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expectedPing);
    });
  });
  // The Lambda path (handler.ts with its linked tables) is covered by
  // test/integration/functions/rest/lambda-handler.test.ts.
});
