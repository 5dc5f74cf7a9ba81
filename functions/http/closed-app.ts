/**
 * An app that answers every request with one problem, in its API's body shape, and runs nothing
 * else (no route, store, queue or client): what a Lambda function serves when its API is switched
 * off (404) or may not be served (503: no token in the cloud, see functions/cloud-token.ts). The
 * security headers are on the answer as on any other.
 */

import { Hono } from "hono";
import type { ErrorBodyFormatter, HttpProblem } from "./problem.ts";
import { securityHeaders } from "./security-headers.ts";

export function createClosedApp(problem: HttpProblem, formatError: ErrorBodyFormatter): Hono {
  const app = new Hono();
  app.use("*", securityHeaders());
  app.all("*", (c) => formatError(c, problem));
  return app;
}
