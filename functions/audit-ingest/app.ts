/**
 * The ingest API as a Hono app built from its dependencies: the front door the Lambda (behind
 * API Gateway) and in-process tests use. Every request goes to the runtime-neutral ingest
 * handler (ingest-handler.ts), whose answer becomes a Web Response.
 */

import { Hono } from "hono";
import { honoRequestBody } from "../http/json-body.ts";
import type { ClientIpResolver } from "../http/problem.ts";
import { createIngestHandler, type IngestHandlerDeps, type IngestHttpRequest } from "./ingest-handler.ts";
import type { IngestAnswer } from "./ingestion-response.ts";

export {
  AUDIT_EVENT_PATH,
  type AuditIngestSettings,
  OPENAPI_PATH,
  TEST_CONNECTION_PATH,
} from "./ingest-handler.ts";

export interface AuditIngestAppDeps extends IngestHandlerDeps {
  clientIp: ClientIpResolver;
}

/** An answer as a Web Response (HEAD answers carry no body). */
export function toWebResponse(answer: IngestAnswer, method: string): Response {
  return new Response(method === "HEAD" ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}

export function createApp(deps: AuditIngestAppDeps): Hono {
  const handle = createIngestHandler(deps);
  const app = new Hono();
  app.all("*", async function ingestApi(c) {
    const request: IngestHttpRequest = {
      ...honoRequestBody(c),
      method: c.req.method,
      path: c.req.path,
      header: (name) => c.req.header(name),
      clientIp: deps.clientIp(c),
    };
    return toWebResponse(await handle(request), c.req.method);
  });
  return app;
}
