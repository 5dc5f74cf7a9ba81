/**
 * The management REST API (/v4) as a Hono app, built by `createApp(deps)` from Web APIs only, so
 * the same app runs under @hono/node-server (local/) and in Lambda (handler.ts).
 */
import { Hono } from "hono";
import type { Config } from "../../core/config/index.ts";
import type { Logger } from "../../core/ports.ts";
import { SERVICE_VERSION } from "../../core/version.ts";

export interface RestAppDeps {
  config: Config["restServer"];
  logger: Logger;
}

export const PING_RESPONSE = "Steward reporting for duty";

export function createApp(deps: RestAppDeps): Hono {
  const app = new Hono();
  const enabled = deps.config.endpointsEnable;

  if (enabled.ping) {
    app.get("/v4/ping", (c) => c.json({ response: PING_RESPONSE, serviceVersion: SERVICE_VERSION }));
  }

  app.notFound((c) =>
    c.json(
      { statusCode: 404, error: "Not Found", message: `Route ${c.req.method}:${c.req.path} not found` },
      404,
    ),
  );
  app.onError((error, c) => {
    deps.logger.error("unhandled error in REST API", { path: c.req.path, error: error.message });
    return c.json({ statusCode: 500, error: "Internal Server Error", message: "Internal server error" }, 500);
  });
  return app;
}
