/**
 * How shared middleware reports a refusal: a status, a reason and optional details, turned into a
 * Response by the app's own ErrorBodyFormatter (the ingest API and the REST API answer in
 * different body shapes but refuse for the same reasons).
 */

import type { Context } from "hono";
import type { ClientErrorStatusCode, ServerErrorStatusCode } from "hono/utils/http-status";

export interface HttpProblem {
  status: ClientErrorStatusCode | ServerErrorStatusCode;
  reason: string;
  details?: Record<string, unknown>;
}

export type ErrorBodyFormatter = (c: Context, problem: HttpProblem) => Response;

/** The client address as the runtime sees it (socket peer locally, API Gateway's sourceIp in Lambda). */
export type ClientIpResolver = (c: Context) => string;
