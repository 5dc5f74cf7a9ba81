/**
 * Debian's InfluxDB 1.x (`influxd`) on ephemeral loopback ports with temp directories, started
 * as a child process. Absent binary: tests skip loudly outside CI and fail in CI.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const influxdAvailable = spawnSync("which", ["influxd"]).status === 0;

/** Call at module level of a test file; returns true when the tests must be skipped. */
export function skipWithoutInfluxd(): boolean {
  if (influxdAvailable) return false;
  if (process.env.CI === "true") throw new Error("influxd is required in CI (apt-get install -y influxdb)");
  console.warn("\n*** influxd not installed: InfluxDB 1.x tests SKIPPED (apt-get install -y influxdb) ***\n");
  return true;
}

export interface Influxd {
  host: string;
  port: number;
  /** Stops the server, keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** The running server's process id (undefined while stopped). */
  pid(): number | undefined;
  query(
    q: string,
    db?: string,
  ): Promise<{ results: { series?: { columns: string[]; values: unknown[][] }[]; error?: string }[] }>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `env`: extra InfluxDB settings for this server, e.g. `INFLUXDB_DATA_MAX_VALUES_PER_TAG`. */
export async function startInfluxd(options: { env?: NodeJS.ProcessEnv } = {}): Promise<Influxd> {
  const directory = await mkdtemp(path.join(tmpdir(), "steward-influxd-"));
  const port = await freePort();
  const bindPort = await freePort();
  let child: ChildProcess | undefined;
  const base = `http://127.0.0.1:${port}`;

  const start = async () => {
    child = spawn("influxd", ["run", "-config", "/dev/null"], {
      stdio: "ignore",
      env: {
        ...process.env,
        INFLUXDB_REPORTING_DISABLED: "true",
        INFLUXDB_BIND_ADDRESS: `127.0.0.1:${bindPort}`,
        INFLUXDB_HTTP_BIND_ADDRESS: `127.0.0.1:${port}`,
        INFLUXDB_META_DIR: path.join(directory, "meta"),
        INFLUXDB_DATA_DIR: path.join(directory, "data"),
        INFLUXDB_DATA_WAL_DIR: path.join(directory, "wal"),
        INFLUXDB_HTTP_LOG_ENABLED: "false",
        INFLUXDB_DATA_QUERY_LOG_ENABLED: "false",
        INFLUXDB_MONITOR_STORE_ENABLED: "false",
        ...options.env,
      },
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const ok = await fetch(`${base}/ping`).then(
        (r) => r.status === 204,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("influxd did not answer /ping within 15 s");
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await exited;
  };

  await start();
  return {
    host: "127.0.0.1",
    port,
    start,
    stop,
    pid: () => child?.pid,
    async query(q, db) {
      const url = new URL("/query", base);
      url.searchParams.set("q", q);
      url.searchParams.set("epoch", "ms");
      if (db !== undefined) url.searchParams.set("db", db);
      return (await (await fetch(url, { method: "POST" })).json()) as Awaited<ReturnType<Influxd["query"]>>;
    },
    async close() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
