/**
 * Builds the one platform client from the config, for the REST API's platform endpoints (host
 * `platform.host`) and the agent's app-name poller (host `appNames.hostIP`): the other
 * `platform.*` settings (ports, user header, certificate check, timeout) and the `cert.*` files
 * are the same for both. Also builds the platform monitor of the health and session pollers
 * (`serversToMonitor.rejectUnauthorized`, the same `cert.*` files, re-read when they change).
 * Certificate paths resolve from the working directory, for every caller (Butler SOS resolved
 * the app-name poller's from its program folder, so one relative path meant two files).
 */
import { resolve } from "node:path";
import { openCertificateFiles } from "../core/adapters/platform/certificate-files.ts";
import { createLicenseRepository } from "../core/adapters/platform/license-repository.ts";
import type { PlatformCertificateOptions } from "../core/adapters/platform/options.ts";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../core/adapters/platform/platform-client.ts";
import { createPlatformMonitor } from "../core/adapters/platform/platform-monitor.ts";
import {
  createRepositoryClient,
  type RepositoryClient,
} from "../core/adapters/platform/repository-client.ts";
import { loadPlatformTlsMaterial } from "../core/adapters/platform/tls-material.ts";
import type { Config } from "../core/config/index.ts";
import type { LicenseSource } from "../core/licences/index.ts";
import type { Clock, Logger, PlatformMonitor } from "../core/ports.ts";

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
  const tls = await loadPlatformTlsMaterial(certificatesInCwd(config.cert, deps.cwd));
  return createQlikPlatformClient({
    connection: { ...config.platform, host },
    tls,
    clock: deps.clock,
    logger: deps.logger.child("platform"),
  });
}

/**
 * Reads the certificate files (PlatformCertificateError when one cannot be read) and opens a
 * repository client on `platform.host`, for callers that speak to the repository's API directly
 * (task-event enrichment).
 */
export async function openRepositoryClient(
  config: Pick<Config, "platform" | "cert">,
  deps: Omit<OpenPlatformClientDeps, "logger">,
): Promise<RepositoryClient> {
  const tls = await loadPlatformTlsMaterial(certificatesInCwd(config.cert, deps.cwd));
  return createRepositoryClient({ connection: config.platform, tls, clock: deps.clock });
}

/**
 * Reads the certificate files and opens the licence monitor's client: the repository at
 * `platform.host`, the version endpoint at `licenseMonitor.version.host` (the repository's host
 * when empty) and `.port`.
 */
export async function openLicenseSource(
  config: Pick<Config, "platform" | "cert" | "licenseMonitor">,
  deps: Pick<OpenPlatformClientDeps, "clock" | "cwd">,
): Promise<LicenseSource> {
  const tls = await loadPlatformTlsMaterial(certificatesInCwd(config.cert, deps.cwd));
  const version = config.licenseMonitor.version;
  return createLicenseRepository({
    connection: config.platform,
    tls,
    clock: deps.clock,
    version: { host: version.host === "" ? config.platform.host : version.host, port: version.port },
  });
}

/** `cert.*` with relative paths resolved from `cwd` (an empty path stays empty). */
function certificatesInCwd(cert: Config["cert"], cwd: string): PlatformCertificateOptions {
  const inCwd = (file: string) => (file === "" ? "" : resolve(cwd, file));
  return {
    ...cert,
    clientCert: inCwd(cert.clientCert),
    clientCertKey: inCwd(cert.clientCertKey),
    clientCertCA: inCwd(cert.clientCertCA),
  };
}

export interface OpenPlatformMonitorDeps extends OpenPlatformClientDeps {
  /** Per call; 5000 ms by default, as Butler SOS's health and session calls. */
  timeoutMs?: number;
}

/**
 * Reads the certificate files (PlatformCertificateError when one cannot be read or they do not
 * form a usable client certificate) and opens the monitor of the health and session pollers.
 */
export async function openPlatformMonitor(
  config: Pick<Config, "serversToMonitor" | "cert">,
  deps: OpenPlatformMonitorDeps,
): Promise<PlatformMonitor> {
  const certificates = await openCertificateFiles({
    files: certificatesInCwd(config.cert, deps.cwd),
    clock: deps.clock,
    logger: deps.logger.child("platform-monitor"),
  });
  return createPlatformMonitor({
    certificates,
    rejectUnauthorized: config.serversToMonitor.rejectUnauthorized,
    clock: deps.clock,
    ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
  });
}
