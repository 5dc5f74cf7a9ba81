/**
 * The simulated platform: N platform servers in one process, each an HTTPS listener over mutual
 * TLS (simulated-server.ts) on consecutive ports from `port` (or ephemeral ports), serving the
 * engine health check, proxy session lists and the repository API with values of its own. What
 * `steward simulate-platform` runs, and what the tests point Steward at. The TLS material is
 * given, not generated: the caller decides which CA the clients must be signed by.
 */
import { type SimulatedServer, type SimulatedTls, startSimulatedServer } from "./simulated-server.ts";

export interface SimulatedPlatformOptions {
  readonly tls: SimulatedTls;
  /** How many servers; 1 by default. */
  readonly servers?: number;
  /** First port; server i listens on `port + i`. 0 (the default) = ephemeral ports. */
  readonly port?: number;
  /** Listening address; 127.0.0.1 by default. */
  readonly host?: string;
  /** Uniform in [0, 1); Math.random by default (a seeded one makes the values repeatable). */
  readonly random?: () => number;
  /** Epoch ms; Date.now by default (each server's `started`). */
  readonly now?: () => number;
  /** Days from today (UTC) to the server licence's Valid To day; 365 by default. */
  readonly licenseExpiresInDays?: number | undefined;
}

export interface SimulatedPlatform {
  readonly servers: readonly SimulatedServer[];
  /** Stops every server. Idempotent. */
  stop(): Promise<void>;
}

export async function startSimulatedPlatform(options: SimulatedPlatformOptions): Promise<SimulatedPlatform> {
  const count = options.servers ?? 1;
  const firstPort = options.port ?? 0;
  if (!Number.isInteger(count) || count < 1) throw new RangeError("servers must be a positive integer");
  if (firstPort !== 0 && firstPort + count - 1 > 65_535) throw new RangeError("the ports would pass 65535");
  const servers: SimulatedServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    for (let index = 0; index < count; index++) {
      servers.push(
        await startSimulatedServer({
          index,
          tls: options.tls,
          host: options.host ?? "127.0.0.1",
          port: firstPort === 0 ? 0 : firstPort + index,
          random: options.random ?? Math.random,
          now: options.now ?? Date.now,
          licenseExpiresInDays: options.licenseExpiresInDays,
        }),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { servers, stop };
}
