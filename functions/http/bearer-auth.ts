/**
 * Bearer token authentication: with a token configured, requests need
 * `Authorization: Bearer <token>` (scheme case-insensitive, token trimmed); otherwise 401
 * "Unauthorized". An empty configured token turns the check off.
 */

import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../core/ports.ts";
import { createSecretMatcher } from "./constant-time.ts";
import type { ClientIpResolver, ErrorBodyFormatter, HttpProblem } from "./problem.ts";

export interface BearerAuthOptions {
  token: string;
  formatError: ErrorBodyFormatter;
  logger: Logger;
  clientIp: ClientIpResolver;
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bearer\s+(.*)$/is.exec(header);
  const token = match?.[1]?.trim();
  return token === undefined || token === "" ? undefined : token;
}

/**
 * Whether an `Authorization` header carries the configured token (constant-time); always true
 * when no token is configured.
 */
export function createBearerCheck(token: string): (authorization: string | undefined) => boolean {
  if (token === "") return () => true;
  const matches = createSecretMatcher(token);
  return function isAuthorized(authorization) {
    const candidate = bearerTokenOf(authorization);
    return candidate !== undefined && matches(candidate);
  };
}

export const UNAUTHORIZED: HttpProblem = { status: 401, reason: "Unauthorized" };

export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler {
  const { formatError, logger, clientIp } = options;
  const isAuthorized = createBearerCheck(options.token);
  return async function bearerAuth(c, next) {
    if (!isAuthorized(c.req.header("authorization"))) {
      logger.warn("Unauthorized request", { ip: clientIp(c), method: c.req.method, path: c.req.path });
      return formatError(c, UNAUTHORIZED);
    }
    await next();
  };
}
