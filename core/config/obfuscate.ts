/**
 * Masking of a configuration tree for logs, crash files and the config UI: secrets are replaced
 * entirely, host names, paths and similar identifying values keep only their first characters.
 * Any other value that is a URL keeps its scheme, host and the words of its path, and loses its
 * credentials (user name and password, query values, token-like path segments: mask-url.ts),
 * whatever its key is called: a token pasted into a link or an endpoint is masked as well as one
 * in a key named `token`. Works on a raw tree (with the `Service` top key, placeholders and
 * `${ENV}` references) or on a parsed `Config`; never mutates its input. A value that is exactly
 * one `${NAME}` reference is kept as written (the config UI shows references unresolved; the
 * name is not the secret).
 *
 * A key named like a secret masks values, not switches: `qlikCloud.tenants[].webhook` or
 * `webhookNotification` hold a secret or a secret URL among switches and limits, so such a
 * section is walked, its text masked, its numbers and booleans shown (`webhook.secret` is masked,
 * `webhook.enable` shows); a boolean is never a secret. A Qlik Cloud tenant's `url` is its address, not a credential (it opens
 * nothing without the OAuth client or API key, which are masked): it is masked as any URL is, its
 * scheme and host kept, anything credential-like in it masked.
 */
import { ENV_REFERENCE_ONLY, looksLikeUrl, MASK, maskUrl } from "./mask-url.ts";

export { MASK };

/** Key names whose values are secrets wherever they appear. */
const SECRET_KEY =
  /password|passwd|pwd|secret|token|api[-_]?key|passphrase|access[-_]?key|client[-_]?secret|webhook/i;

/** True for key names that hold secrets (apiToken, insertApiKey, password, clientCertPassphrase, ...). */
export function isSecretKey(name: string): boolean {
  return SECRET_KEY.test(name);
}

/** Paths (under `Service`, `[]` for list items, `*` for any map key) whose values are secrets. */
const SECRET_PATHS = [
  "obsPlatform.event.header[].value",
  "obsPlatform.metric.header[].value",
  "incidentTool.newRelic.reloadTaskFailure.sharedSettings.header[].value",
  "incidentTool.newRelic.reloadTaskAborted.sharedSettings.header[].value",
  "serversToMonitor.servers[].headers.*",
  "chat.webhookURL",
];

/** Keys holding host names anywhere in the tree: first 3 characters kept. */
const HOST_KEYS = new Set(["host", "hostIP", "serverHost", "brokerHost"]);

/**
 * Partially masked values: path suffix → characters kept, as Butler SOS masks them. A value that
 * is a URL is masked as a URL instead (its first characters could be `https://user:pass`).
 */
const PARTIAL_PATHS: ReadonlyArray<readonly [string, number]> = [
  ["thirdPartyToolsCredentials.obsPlatform[].accountId", 3],
  ["timeseriesdbConfig.v2Config.org", 3],
  ["timeseriesdbConfig.v2Config.bucket", 3],
  ["timeseriesdbConfig.v1Config.auth.username", 3],
  ["virtualProxies[].virtualProxy", 3],
  ["udpServerConfig.allowedSources[]", 3],
  ["allowedHosts[]", 3],
  ["trustedProxies[]", 3],
  ["appSpecific.app[].include[].appId", 5],
  ["appSpecific.app[].include[].appName", 5],
  ["heartbeat.remoteURL", 10],
  ["topic", 10],
  ["logEvents.sendToMQTT.baseTopic", 10],
  ["cert.clientCert", 10],
  ["cert.clientCertKey", 10],
  ["cert.clientCertCA", 10],
  ["mqttConfig.username", 3],
  ["mqttConfig.tls.caFile", 10],
  ["mqttConfig.tls.certFile", 10],
  ["mqttConfig.tls.keyFile", 10],
  ["timeseriesdbConfig.tls.caFile", 10],
  // A listener's certificate files (auditEvents.tls.cert, restServer.tls.pfx, ...).
  ["tls.cert", 10],
  ["tls.key", 10],
  ["tls.pfx", 10],
  ["tls.ca", 10],
  ["fileOperations.tableDataDirectory", 10],
  ["cloud.bucketName", 3],
  ["cloud.eventQueueUrl", 10],
  ["qlikCloud.tenants[].auth.oauth.clientId", 3],
];

/** URLs whose path is the secret (an uptime service's check URL): every path segment is masked. */
const SECRET_PATH_URLS = ["heartbeat.remoteURL"];

type Segment = string;

function matches(pattern: string, path: readonly Segment[]): boolean {
  const wanted = pattern.replaceAll("[]", ".[]").split(".");
  if (wanted.length > path.length) return false;
  const tail = path.slice(path.length - wanted.length);
  return wanted.every((w, i) => w === "*" || w === tail[i]);
}

/**
 * True for a value that is a secret: a value under a secret's name or path, and any text inside a
 * section named like a secret. A section itself is walked, and a boolean is never a secret.
 */
function isSecret(path: readonly Segment[], value: unknown): boolean {
  if (typeof value === "boolean" || (typeof value === "object" && value !== null)) return false;
  const keys = path.filter((s) => s !== "[]");
  const key = keys[keys.length - 1];
  if (key !== undefined && isSecretKey(key)) return true;
  if (typeof value === "string" && keys.slice(0, -1).some(isSecretKey)) return true;
  return SECRET_PATHS.some(
    (p) => path.length === p.replaceAll("[]", ".[]").split(".").length && matches(p, path),
  );
}

function partialLength(path: readonly Segment[]): number | undefined {
  const last = path[path.length - 1];
  if (last !== undefined && HOST_KEYS.has(last)) return 3;
  return PARTIAL_PATHS.find(([p]) => matches(p, path))?.[1];
}

const isEmpty = (value: unknown) => value === "" || value === null || value === undefined;

/** Every leaf replaced by the mask (empty values stay empty: they reveal only that it is unset). */
function maskAll(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskAll);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskAll(v)]));
  }
  return isEmpty(value) ? value : MASK;
}

/** First `keep` characters, never more than half of a short value, then the mask. */
function maskPartly(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) return value.map((v) => maskPartly(v, keep));
  if (typeof value === "object" && value !== null) return maskAll(value);
  if (isEmpty(value)) return value;
  const text = String(value);
  return `${text.slice(0, Math.min(keep, Math.floor(text.length / 2)))}${MASK}`;
}

function walk(value: unknown, path: Segment[]): unknown {
  if (typeof value === "string" && ENV_REFERENCE_ONLY.test(value)) return value;
  if (path.length > 0) {
    if (isSecret(path, value)) return maskAll(value);
    if (typeof value === "string" && looksLikeUrl(value)) {
      return maskUrl(value, { secretPath: SECRET_PATH_URLS.some((p) => matches(p, path)) });
    }
    const keep = partialLength(path);
    if (keep !== undefined && (typeof value !== "object" || value === null)) return maskPartly(value, keep);
  }
  if (Array.isArray(value)) return value.map((item) => walk(item, [...path, "[]"]));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
  }
  return value;
}

/**
 * A masked deep copy of a config tree: either the file tree `{Service: {...}}` or a parsed
 * `Config`. Secrets become `**********`; host names and paths keep their first characters.
 */
export function obfuscateConfig<T>(tree: T): T {
  if (typeof tree === "object" && tree !== null && !Array.isArray(tree) && "Service" in tree) {
    const { Service, ...rest } = tree as Record<string, unknown>;
    return { ...(walk(rest, []) as object), Service: walk(Service, []) } as T;
  }
  return walk(tree, []) as T;
}
