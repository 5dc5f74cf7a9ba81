/**
 * Child process of the polling benchmark: the simulated platform (product code) with N servers
 * over mutual TLS, in a process of its own so that its CPU is not counted as the poller's.
 * Usage: node polling-platform.mjs PKI_DIR SERVERS (the files of writeThrowawayPki).
 * Sends `{ready: [port, ...]}` over IPC once every server listens. It also watches every
 * listener's traffic, to show whether a poller spreads its calls or storms: requests in flight at
 * once (peak), TLS connections open at once (peak) and opened, and calls per server. Answers the
 * parent's "stats" message with those figures and this process's CPU time; "reset" starts the
 * counting again.
 */
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { Server } from "node:https";
import type { TLSSocket } from "node:tls";
import { startSimulatedPlatform } from "../../local/simulated-platform/start-simulated-platform.ts";

const [directory = ".", countText = "200"] = process.argv.slice(2);
const read = (name: string) => readFileSync(`${directory}/${name}`);

const traffic = {
  requests: 0,
  inFlight: 0,
  peakInFlight: 0,
  connectionsOpened: 0,
  open: 0,
  peakOpen: 0,
};

// The simulated servers do not hand out their https.Server; every one of them emits through this
// prototype, so counting here sees all of their requests and connections.
const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function countingEmit(this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === "request") {
    const response = args[1] as ServerResponse;
    traffic.requests += 1;
    traffic.inFlight += 1;
    traffic.peakInFlight = Math.max(traffic.peakInFlight, traffic.inFlight);
    response.once("close", () => {
      traffic.inFlight -= 1;
    });
  } else if (event === "secureConnection") {
    const socket = args[0] as TLSSocket;
    traffic.connectionsOpened += 1;
    traffic.open += 1;
    traffic.peakOpen = Math.max(traffic.peakOpen, traffic.open);
    socket.once("close", () => {
      traffic.open -= 1;
    });
  }
  return emit.call(this, event, ...args);
} as typeof Server.prototype.emit;

const platform = await startSimulatedPlatform({
  tls: { cert: read("server.pem"), key: read("server_key.pem"), ca: read("root.pem") },
  servers: Number(countText),
  port: 0,
});

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

process.on("message", (message) => {
  if (message === "reset") {
    traffic.requests = 0;
    traffic.connectionsOpened = 0;
    traffic.peakInFlight = traffic.inFlight;
    traffic.peakOpen = traffic.open;
    for (const server of platform.servers) server.reset();
    process.send?.({ reset: true });
  } else if (message === "stats") {
    // Calls logged per server since the last reset (health and sessions; the log keeps 1000).
    const calls = platform.servers.map((server) => server.calls.length);
    const byPath = new Map<string, number>();
    for (const server of platform.servers)
      for (const call of server.calls) byPath.set(call.path, (byPath.get(call.path) ?? 0) + 1);
    process.send?.({
      ...traffic,
      callsPerServer: { min: Math.min(...calls), max: Math.max(...calls) },
      callsByPath: Object.fromEntries(byPath),
      repositoryCalls: platform.servers.reduce((sum, server) => sum + server.repository.calls.length, 0),
      cpuMs: cpuMs(),
    });
  }
});

const stop = () => void platform.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("disconnect", stop);
process.send?.({ ready: platform.servers.map((server) => server.port) });
