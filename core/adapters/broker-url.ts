/**
 * How logs and errors name the broker: `mqtt[s]://host:port`, without credentials. A module of
 * its own, apart from the MQTT client (mqtt.ts), so that what only names the broker (the options
 * built at start, their warnings) does not load mqtt.js into processes that never connect: the
 * REST Lambda loads the client only on its first broker call.
 */

/** The host as sockets take it: an IPv6 literal without the brackets the config allows. */
export const bareHost = (brokerHost: string) => brokerHost.replace(/^\[(.*)\]$/, "$1");

/** `mqtt[s]://host:port`, IPv6 literals in brackets: what logs and errors name. No credentials. */
export function brokerUrl(options: { brokerHost: string; brokerPort: number; tls?: unknown }): string {
  const host = bareHost(options.brokerHost);
  return `${options.tls ? "mqtts" : "mqtt"}://${host.includes(":") ? `[${host}]` : host}:${options.brokerPort}`;
}
