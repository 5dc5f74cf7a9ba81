/**
 * Checks that each enabled listener of this process is up, for the container health check: a TCP
 * listener (ingest API, REST API, scrape endpoint) is up when a connection to its address
 * opens; a UDP socket (user events, log events) is up when its address is taken,
 * i.e. a second socket cannot bind it. Wildcard hosts are probed on loopback.
 */
import { createSocket } from "node:dgram";
import { connect } from "node:net";
import { type Config, logEventsEnabled } from "../../core/config/index.ts";

export interface ListenerProbe {
  readonly name: string;
  /** Resolves with the reason the listener is down, or undefined when it is up. */
  check(): Promise<string | undefined>;
}

const PROBE_TIMEOUT_MS = 1000;

const loopbackFor = (host: string) =>
  host === "0.0.0.0" ? "127.0.0.1" : host === "::" || host === "[::]" ? "::1" : host.replace(/^\[|\]$/g, "");

export function tcpProbe(name: string, host: string, port: number): ListenerProbe {
  return {
    name,
    check: () =>
      new Promise((resolve) => {
        const socket = connect({ host: loopbackFor(host), port });
        const done = (reason: string | undefined) => {
          socket.destroy();
          resolve(reason);
        };
        socket.setTimeout(PROBE_TIMEOUT_MS, () =>
          done(`${name} (${host}:${port}) does not accept connections in time`),
        );
        socket.once("connect", () => done(undefined));
        socket.once("error", (error) => done(`${name} (${host}:${port}) is down: ${error.message}`));
      }),
  };
}

export function udpProbe(name: string, host: string, port: number): ListenerProbe {
  return {
    name,
    check: () =>
      new Promise((resolve) => {
        const address = loopbackFor(host);
        const socket = createSocket({ type: address.includes(":") ? "udp6" : "udp4", reuseAddr: false });
        socket.once("error", () => {
          socket.close();
          resolve(undefined);
        });
        socket.bind(
          { address: host === "0.0.0.0" || host === "::" ? host : address, port, exclusive: true },
          () => {
            socket.close();
            resolve(`${name} (${host}:${port}) is not bound`);
          },
        );
      }),
  };
}

/** The probes of every listener the config enables. */
export function listenerProbes(config: Config): ListenerProbe[] {
  const probes: ListenerProbe[] = [];
  if (config.auditEvents.enable)
    probes.push(tcpProbe("auditEvents", config.auditEvents.host, config.auditEvents.port));
  if (config.restServer.enable)
    probes.push(tcpProbe("restServer", config.restServer.host, config.restServer.port));
  if (config.scrapeEndpoint.enable) {
    probes.push(tcpProbe("scrapeEndpoint", config.scrapeEndpoint.host, config.scrapeEndpoint.port));
  }
  if (config.userEvents.enable) {
    const udp = config.userEvents.udpServerConfig;
    probes.push(udpProbe("userEvents", udp.serverHost, udp.portUserActivityEvents));
  }
  if (logEventsEnabled(config)) {
    const udp = config.logEvents.udpServerConfig;
    probes.push(udpProbe("logEvents", udp.serverHost, udp.portLogEvents));
  }
  return probes;
}
