/**
 * The server tags: `host` = `servers[].host` without its port, `server_name`, `server_description`,
 * plus every `serverTags` entry. They tag every health point, label every scrape gauge and are the
 * attributes of every health metric. A configured tag never replaces one of the three fixed ones
 * (config validation refuses such names; this stays safe anyway). Session tags add
 * `user_session_virtual_proxy` (the prefix; `/` for the root proxy) and `user_session_host`
 * (`userSessions.host` with its port); they carry the server tags on every time-series DB version
 * (Butler SOS left them out on v2).
 */
import type { MonitoredServerConfig } from "../config/index.ts";

export type ServerTags = Readonly<Record<string, string>>;

/** The tag names every server has, before its `serverTags`. */
export const FIXED_SERVER_TAGS = ["host", "server_name", "server_description"] as const;

/**
 * `host:port` without the port: `[::1]:4747` → `::1`, `[::1]` → `::1`, a bare IPv6 address (more
 * than one `:`, no brackets) as it is, otherwise everything before the first `:`.
 */
export function hostWithoutPort(hostPort: string): string {
  if (hostPort.startsWith("[")) {
    const end = hostPort.indexOf("]");
    return end === -1 ? hostPort : hostPort.slice(1, end);
  }
  const first = hostPort.indexOf(":");
  if (first === -1 || hostPort.indexOf(":", first + 1) !== -1) return hostPort;
  return hostPort.slice(0, first);
}

export type ServerTagSource = Pick<
  MonitoredServerConfig,
  "host" | "serverName" | "serverDescription" | "serverTags"
>;

export function serverTags(server: ServerTagSource): ServerTags {
  return {
    ...server.serverTags,
    host: hostWithoutPort(server.host),
    server_name: server.serverName,
    server_description: server.serverDescription,
  };
}

/** Server tags + the virtual proxy prefix and the session host (`host:port`) of a session poll. */
export function sessionTags(tags: ServerTags, virtualProxy: string, sessionHost: string): ServerTags {
  return { ...tags, user_session_virtual_proxy: virtualProxy, user_session_host: sessionHost };
}
