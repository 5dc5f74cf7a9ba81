/**
 * In the cloud an API without a token is closed: its function answers every request 503 and logs
 * one ERROR at its cold start naming the setting to set. Behind API Gateway an endpoint is public
 * by construction, so an API without a token there would answer the whole internet: the REST API
 * would let anyone read and change the key-value store and the schedules an on-prem agent fires
 * as reload-task starts. The stack's default configuration (`Service: {}` until the StewardConfig
 * secret is set) therefore gives a stack that answers 503, not an open one.
 *
 * The ingest API is held to the same rule although its token is no secret from its users (it
 * ships to browsers with the extension): what the token keeps out is everyone else, the scanners
 * and bots that find every public endpoint and would otherwise post into the audit pipeline. What
 * a holder of the token can do is bounded by the per-client rate limit, the gateway's throttle and
 * the function's reserved concurrency (docs/aws.md, "Limits").
 */

import type { Logger } from "../core/ports.ts";
import type { HttpProblem } from "./http/problem.ts";

/** An API a function serves and the setting that holds its token. */
export interface TokenSetting {
  api: string;
  setting: string;
}

export const REST_TOKEN: TokenSetting = { api: "REST API", setting: "restServer.apiToken" };
export const INGEST_TOKEN: TokenSetting = { api: "Audit event API", setting: "auditEvents.apiToken" };

/**
 * The 503 a function answers to every request while `api` has no token. Logs the ERROR that says
 * what to set: call it once, when the function's app is built (its cold start).
 */
export function closedWithoutToken(logger: Logger, { api, setting }: TokenSetting): HttpProblem {
  logger.error(
    `${api} has no token: every request is answered 503 until ${setting} is set in the StewardConfig secret and the stack deployed again (docs/aws.md)`,
    { setting },
  );
  return { status: 503, reason: `${api} not configured: ${setting} is not set` };
}
