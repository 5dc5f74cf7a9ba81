/**
 * What `steward service install` registers, written as the configuration of the Windows service
 * wrapper (WinSW 1.17, shipped as steward-service.exe, which reads the XML file named after
 * itself): the service runs `steward.exe start --config FILE` in the configuration file's folder,
 * so the configuration's relative paths (data\, log\) are next to it.
 *
 * - Starts at boot (`Automatic`), as NT AUTHORITY\LocalService unless told otherwise: the least
 *   an account needs to listen on ports and write its own folder.
 * - After a crash the service control manager restarts it after 10 s, 30 s, then every 60 s; an
 *   hour without a crash starts the back-off over.
 * - A stop is a Ctrl+C to Steward (the wrapper's way), which stops within its 10 s shutdown
 *   budget and exits 0; the wrapper kills it only if it has not exited after 15 s, so it never
 *   cuts a graceful stop short. Steward is stopped before any process it started.
 * - Its console output goes to log\steward-service.out.log and .err.log beside the
 *   configuration, rolled at 10 MB, the last 8 kept.
 *
 * The file starts with the <service> element itself: WinSW 1.17 reads some settings (stoptimeout,
 * resetfailure) from the document's first node, which an XML declaration or a comment in front
 * would take.
 */

/** Accounts Windows has without a password; any other is DOMAIN\user (or .\user). */
const BUILT_IN_ACCOUNTS = {
  localservice: { domain: "NT AUTHORITY", user: "LocalService" },
  networkservice: { domain: "NT AUTHORITY", user: "NetworkService" },
  localsystem: undefined,
} as const;

export type ServiceAccount =
  /** The service control manager's default, LocalSystem: no <serviceaccount> at all. */
  | { kind: "localsystem" }
  | { kind: "built-in"; domain: string; user: string }
  /** A user or managed service account; a password is set in Windows, never written here. */
  | { kind: "user"; domain: string; user: string };

export const DEFAULT_SERVICE_NAME = "Steward";
export const DEFAULT_ACCOUNT = "LocalService";

export class ServiceDefinitionError extends Error {
  override name = "ServiceDefinitionError";
}

/**
 * Service names become file names (the wrapper's copy for a second service) and the wrapper's
 * id: letters, digits, `.`, `_` and `-`.
 */
export function checkServiceName(name: string): string {
  if (!/^[A-Za-z0-9._-]{1,80}$/.test(name)) {
    throw new ServiceDefinitionError(
      `--name must be 1 to 80 letters, digits, ".", "_" or "-" (got "${name}")`,
    );
  }
  return name;
}

/** `LocalService`, `NetworkService`, `LocalSystem` (any case), or `DOMAIN\user`. */
export function parseAccount(text: string): ServiceAccount {
  const key = text.toLowerCase().replace(/^nt authority\\/, "");
  if (key in BUILT_IN_ACCOUNTS) {
    const account = BUILT_IN_ACCOUNTS[key as keyof typeof BUILT_IN_ACCOUNTS];
    return account === undefined ? { kind: "localsystem" } : { kind: "built-in", ...account };
  }
  const match = /^([^\\/]+)\\([^\\/]+)$/.exec(text);
  if (match === null) {
    throw new ServiceDefinitionError(
      `--account must be LocalService, NetworkService, LocalSystem or DOMAIN\\user (got "${text}")`,
    );
  }
  return { kind: "user", domain: match[1] ?? "", user: match[2] ?? "" };
}

/** The account as Windows shows it. */
export function accountName(account: ServiceAccount): string {
  return account.kind === "localsystem" ? "LocalSystem" : `${account.domain}\\${account.user}`;
}

export interface ServiceDefinition {
  name: string;
  version: string;
  /** steward.exe, absolute. */
  executable: string;
  /** The configuration file, absolute. */
  config: string;
  /** Its folder: the service's working directory. */
  workingDirectory: string;
  /** Where the wrapper writes the console output. */
  logDirectory: string;
  account: ServiceAccount;
}

/** The wrapper's XML for `definition`. */
export function wrapperXml(definition: ServiceDefinition): string {
  const { name, account } = definition;
  const x = escapeXml;
  return `<service>
  <!-- Written by "steward service install"; change it by uninstalling and installing again. -->
  <id>${x(name)}</id>
  <name>${x(name)}</name>
  <description>${x(`Steward ${definition.version}: audit event ingest, management REST API and on-prem agent for the platform (configuration ${definition.config})`)}</description>
  <executable>${x(definition.executable)}</executable>
  <argument>start</argument>
  <argument>--config</argument>
  <argument>${x(definition.config)}</argument>
  <workingdirectory>${x(definition.workingDirectory)}</workingdirectory>
  <startmode>Automatic</startmode>
${serviceAccountXml(account)}  <onfailure action="restart" delay="10 sec"/>
  <onfailure action="restart" delay="30 sec"/>
  <onfailure action="restart" delay="60 sec"/>
  <resetfailure>1 hour</resetfailure>
  <stopparentprocessfirst>true</stopparentprocessfirst>
  <stoptimeout>15 sec</stoptimeout>
  <logpath>${x(definition.logDirectory)}</logpath>
  <log mode="roll-by-size">
    <sizeThreshold>10240</sizeThreshold>
    <keepFiles>8</keepFiles>
  </log>
</service>
`;
}

/**
 * LocalSystem is the default (no element). A built-in account has an empty password, which the
 * service control manager expects for them. Another account gets the "log on as a service" right
 * and no password: the operator types it into Windows (services.msc or `sc.exe config`), so it
 * is never stored in a file; a group managed service account needs none.
 */
function serviceAccountXml(account: ServiceAccount): string {
  if (account.kind === "localsystem") return "";
  const password = account.kind === "built-in" ? "    <password></password>\n" : "";
  const logon = account.kind === "user" ? "    <allowservicelogon>true</allowservicelogon>\n" : "";
  return `  <serviceaccount>
    <domain>${escapeXml(account.domain)}</domain>
    <user>${escapeXml(account.user)}</user>
${password}${logon}  </serviceaccount>
`;
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
