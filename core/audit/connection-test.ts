/** GET /api/v1/test-connection: reachability plus an optional version check. */

import type { Logger } from "../ports.ts";
import { type CompatibilityRule, isClientVersionCompatible } from "./client-version.ts";

export interface ConnectionTestResult {
  status: "ok";
  message: string;
  timestamp: string;
  serverVersion?: string;
  auditClientVersion?: string;
  compatible?: boolean;
}

export interface ConnectionTestOptions {
  serverVersion: string;
  compatibility: readonly CompatibilityRule[];
}

export const CONNECTION_TEST_MESSAGE = "Steward audit event API is reachable";

/** The connection test answer; the version members appear only when the caller sent a version. */
export function testConnection(
  clientVersion: string | undefined,
  now: string,
  options: ConnectionTestOptions,
  logger: Logger,
): ConnectionTestResult {
  const result: ConnectionTestResult = { status: "ok", message: CONNECTION_TEST_MESSAGE, timestamp: now };
  if (clientVersion === undefined) {
    logger.verbose("Connection test without client version");
    return result;
  }
  const compatible = isClientVersionCompatible(options.serverVersion, clientVersion, options.compatibility);
  if (!compatible) {
    logger.warn("Connection test from incompatible client version", {
      serverVersion: options.serverVersion,
      auditClientVersion: clientVersion,
    });
  }
  return { ...result, serverVersion: options.serverVersion, auditClientVersion: clientVersion, compatible };
}
