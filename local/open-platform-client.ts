/**
 * Builds the one platform client from the config, for the REST API's platform endpoints (host
 * `platform.host`) and the agent's app-name poller (host `appNames.hostIP`): the other
 * `platform.*` settings (ports, user header, certificate check, timeout) and the `cert.*` files
 * are the same for both. Certificate paths resolve from the working directory, for every caller
 * (the replaced system resolved the app-name poller's from its program folder: reference §13.18).
 */
import { resolve } from "node:path";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../core/adapters/platform/platform-client.ts";
import { loadPlatformTlsMaterial } from "../core/adapters/platform/tls-material.ts";
import type { Config } from "../core/config/index.ts";
import type { Clock, Logger } from "../core/ports.ts";

export interface OpenPlatformClientDeps {
  logger: Logger;
  clock: Clock;
  /** Relative certificate paths resolve from here. */
  cwd: string;
}

/** Reads the certificate files (PlatformCertificateError when one cannot be read) and opens the client. */
export async function openPlatformClient(
  config: Pick<Config, "platform" | "cert">,
  host: string,
  deps: OpenPlatformClientDeps,
): Promise<ClosablePlatformClient> {
  const inCwd = (file: string) => (file === "" ? "" : resolve(deps.cwd, file));
  const tls = await loadPlatformTlsMaterial({
    ...config.cert,
    clientCert: inCwd(config.cert.clientCert),
    clientCertKey: inCwd(config.cert.clientCertKey),
    clientCertCA: inCwd(config.cert.clientCertCA),
  });
  return createQlikPlatformClient({
    connection: { ...config.platform, host },
    tls,
    clock: deps.clock,
    logger: deps.logger.child("platform"),
  });
}
