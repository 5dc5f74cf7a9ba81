/** Which features reach the platform with client certificates (so their files must be readable). */
import type { Config } from "./schema/config.ts";
import { PLATFORM_ENDPOINT_KEYS } from "./schema/rest-server.ts";

/** The `cert.*` keys naming certificate files. */
export const CERT_FILE_KEYS = ["clientCert", "clientCertKey", "clientCertCA"] as const;

/** True when a feature that talks to the platform with client certificates is active. */
export function needsCertificates(config: Config): boolean {
  const rest = config.restServer;
  return (
    (rest.enable && PLATFORM_ENDPOINT_KEYS.some((k) => rest.endpointsEnable[k])) ||
    config.serversToMonitor.servers.length > 0 ||
    config.appNames.enableAppNameExtract ||
    config.userSessions.enableSessionExtract
  );
}
