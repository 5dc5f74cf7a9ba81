/**
 * Request logging without secrets: method, path, status, duration and client IP at `verbose`
 * (headers, query strings and bodies are never logged: they may carry tokens or values).
 */
import type { MiddlewareHandler } from "hono";
import type { Clock, Logger } from "../../core/ports.ts";
import type { ClientIpResolver } from "../http/problem.ts";

export interface RequestLogOptions {
  logger: Logger;
  clock: Clock;
  clientIp: ClientIpResolver;
}

export function requestLog(options: RequestLogOptions): MiddlewareHandler {
  const { logger, clock, clientIp } = options;
  return async function requestLog(c, next) {
    if (!logger.isLevelEnabled("verbose")) {
      await next();
      return;
    }
    const started = clock.now();
    await next();
    let ip: string;
    try {
      ip = clientIp(c);
    } catch {
      ip = "unknown";
    }
    logger.verbose("REST request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: clock.now() - started,
      ip,
    });
  };
}
