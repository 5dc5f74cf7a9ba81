/**
 * The ports of a handbook walk (handbook-walk.ts): the pages use Steward's default ports, the walk
 * free ones, so that it runs beside other tests and whatever else listens on the machine. They are
 * taken below the system's ephemeral range: a port picked there stays free while the walk's
 * commands start (seconds, as `npx` builds first), whereas one from that range may meanwhile be
 * handed to a connection or a `--port 0` listener of another test. Each default port a trial uses
 * is given a free one, and that is all the walk changes:
 *
 * - in a command or a line it must show, `:8081` (a URL, `host:port`) becomes `:<free>`;
 * - in every configuration file of the directory, before each command, the keys that take a
 *   default port are set to the free one (sections that are off included: a port is never
 *   checked there);
 * - a command that uses a default port without naming it gets the option that names the free one:
 *   `npm start` (the embedded default configuration) runs that configuration with the free ports
 *   through `-- --config`, `simulate-platform` gets `--port 0`, `npx mqtt sub` gets `-p`. The
 *   README's `npm ci &&` is left out: the walk runs in the installed checkout.
 */
import { createSocket } from "node:dgram";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { isMap, parseDocument, stringify } from "yaml";
import { EMBEDDED_CONFIG } from "../../core/config/defaults.ts";

/** Where each default port is set in a configuration file, under `Service`. */
const PORT_KEYS: ReadonlyMap<number, readonly string[]> = new Map([
  [8081, ["restServer", "port"]],
  [8181, ["auditEvents", "port"]],
  [3100, ["configVisualisation", "port"]],
  [9842, ["scrapeEndpoint", "port"]],
  [9997, ["userEvents", "udpServerConfig", "portUserActivityEvents"]],
  [9996, ["logEvents", "udpServerConfig", "portLogEvents"]],
  [9998, ["taskEvents", "udpServerConfig", "portTaskEvents"]],
  [8086, ["timeseriesdbConfig", "port"]],
  [1883, ["mqttConfig", "brokerPort"]],
]);

/** The UDP listeners' ports; the others are TCP. */
const UDP_PORTS = new Set([9996, 9997, 9998]);

/** The configuration `npm start` runs in the walk: the embedded one, on the walk's ports. */
export const WALK_DEFAULT_CONFIG = "walk-default.yaml";

export class WalkPorts {
  private constructor(private readonly ports: ReadonlyMap<number, number>) {}

  /**
   * A free port for each default port of `defaults` (Steward's listeners), and `given` ones for
   * the servers a trial starts itself (InfluxDB on 8086, the broker on 1883).
   */
  static async free(
    defaults: readonly number[],
    given: Readonly<Record<number, number>> = {},
  ): Promise<WalkPorts> {
    const ports = new Map<number, number>();
    for (const port of defaults) ports.set(port, await freeNonEphemeralPort(UDP_PORTS.has(port)));
    for (const [port, free] of Object.entries(given)) ports.set(Number(port), free);
    return new WalkPorts(ports);
  }

  /** The walk's port for `port`. */
  of(port: number): number {
    const free = this.ports.get(port);
    if (free === undefined) throw new Error(`the walk has no port for ${port}`);
    return free;
  }

  /** `:PORT` of each default port in `text` as the walk's. */
  inText(text: string): string {
    return text.replace(/:(\d{2,5})(?!\d)/g, (whole, port: string) => {
      const free = this.ports.get(Number(port));
      return free === undefined ? whole : `:${free}`;
    });
  }

  /** `command` on the walk's ports (writing the configuration `npm start` then runs into `dir`). */
  inCommand(command: string, dir: string): string {
    let moved = this.inText(command).replace(/^npm ci && /, "");
    if (/^npm start\b/.test(moved) && !/^npm start -- /.test(moved)) {
      writeFileSync(
        join(dir, WALK_DEFAULT_CONFIG),
        stringify(this.inConfig(structuredClone(EMBEDDED_CONFIG))),
      );
      moved = moved.replace(/^npm start\b/, `npm start -- --config ${WALK_DEFAULT_CONFIG}`);
    }
    if (!/ --port /.test(moved)) {
      moved = moved.replace(/^npx steward simulate-platform\b/, "npx steward simulate-platform --port 0");
    }
    if (/^npx mqtt sub\b/.test(moved) && !/ -p /.test(moved)) {
      moved = moved.replace(/^npx mqtt sub\b/, `npx mqtt sub -p ${this.of(1883)}`);
    }
    return moved;
  }

  /** Sets the port keys of every configuration file (a YAML file with `Service`) in `dir`. */
  inConfigFiles(dir: string): void {
    for (const name of readdirSync(dir).filter((file) => /\.ya?ml$/.test(file))) {
      const path = join(dir, name);
      const doc = parseDocument(readFileSync(path, "utf8"));
      if (!isMap(doc.get("Service"))) continue;
      for (const [port, keys] of PORT_KEYS) {
        const free = this.ports.get(port);
        if (free !== undefined) doc.setIn(["Service", ...keys], free);
      }
      writeFileSync(path, doc.toString());
    }
  }

  private inConfig<T extends { Service: Record<string, unknown> }>(config: T): T {
    for (const [port, keys] of PORT_KEYS) {
      const free = this.ports.get(port);
      if (free === undefined) continue;
      let section = config.Service as Record<string, unknown>;
      for (const key of keys.slice(0, -1)) {
        section[key] ??= {};
        section = section[key] as Record<string, unknown>;
      }
      section[keys.at(-1) as string] = free;
    }
    return config;
  }
}

/** Ports this process has handed out, so that walks running side by side never share one. */
const handedOut = new Set<number>();

/** A loopback port below the ephemeral range that is free now (bound and released), TCP or UDP. */
async function freeNonEphemeralPort(udp: boolean): Promise<number> {
  const low = ephemeralRangeStart();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (handedOut.has(port) || !(await bindable(port, udp))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between 10000 and ${low}`);
}

/** The first port of Linux's ephemeral range (32768 where it cannot be read). */
function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return Number(low) > 11_000 ? Number(low) : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number, udp: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    if (udp) {
      const socket = createSocket("udp4");
      socket.once("error", () => resolve(false));
      socket.bind(port, "127.0.0.1", () => socket.close(() => resolve(true)));
      return;
    }
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
