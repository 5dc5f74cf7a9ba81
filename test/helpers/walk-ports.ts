/**
 * The ports of a handbook walk (handbook-walk.ts): the pages use Steward's default ports, the walk
 * free ones, so that it runs beside other tests and whatever else listens on the machine. Each
 * default port a trial uses is given a free one, and that is all the walk changes:
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
import { join } from "node:path";
import { isMap, parseDocument, stringify } from "yaml";
import { EMBEDDED_CONFIG } from "../../core/config/defaults.ts";
import { freePort } from "./free-port.ts";

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
    for (const port of defaults)
      ports.set(port, UDP_PORTS.has(port) ? await freeUdpPort() : await freePort());
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

/** A UDP port on loopback that was free a moment ago. */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
