/** Client IP in Lambda: API Gateway's `requestContext.http.sourceIp` (as hono/aws-lambda reads it). */

import type { Context } from "hono";
import { getConnInfo } from "hono/aws-lambda";

export function lambdaClientIp(c: Context): string {
  return getConnInfo(c).remote.address ?? "unknown";
}
