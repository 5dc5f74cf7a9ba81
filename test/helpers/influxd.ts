/**
 * Debian's InfluxDB 1.x (`influxd`) on ephemeral loopback ports with temp directories, started
 * as a child process, over plain http or, given a certificate, HTTPS only (`[http]
 * https-enabled`). Absent binary: tests skip loudly outside CI and fail in CI.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpsRequest } from "node:https";
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
  /** `http://127.0.0.1:<port>`, or `https://…` when started with a certificate. */
  base: string;
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

/** The server's certificate and key (PEM files), and the CA (PEM file) that signed it. */
export interface InfluxdHttps {
  certificate: string;
  privateKey: string;
  ca: string;
}

/**
 * `env`: extra InfluxDB settings for this server, e.g. `INFLUXDB_DATA_MAX_VALUES_PER_TAG`;
 * `https`: serve HTTPS only, with this certificate.
 */
export async function startInfluxd(
  options: { env?: NodeJS.ProcessEnv; https?: InfluxdHttps } = {},
): Promise<Influxd> {
  const directory = await mkdtemp(path.join(tmpdir(), "steward-influxd-"));
  const port = await freePort();
  const bindPort = await freePort();
  let child: ChildProcess | undefined;
  const { https } = options;
  const base = `${https === undefined ? "http" : "https"}://127.0.0.1:${port}`;
  const ca = https === undefined ? undefined : readFileSync(https.ca);
  const httpsEnv =
    https === undefined
      ? {}
      : {
          INFLUXDB_HTTP_HTTPS_ENABLED: "true",
          INFLUXDB_HTTP_HTTPS_CERTIFICATE: https.certificate,
          INFLUXDB_HTTP_HTTPS_PRIVATE_KEY: https.privateKey,
        };
  /** fetch, or over HTTPS a node:https request trusting the server's CA (fetch takes no CA). */
  const call = (url: URL, method: "GET" | "POST"): Promise<{ status: number; text: string }> => {
    if (ca === undefined) {
      return fetch(url, { method }).then(async (response) => ({
        status: response.status,
        text: await response.text(),
      }));
    }
    return new Promise((resolve, reject) => {
      const outgoing = httpsRequest(url, { method, ca }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      });
      outgoing.on("error", reject);
      outgoing.end();
    });
  };

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
        ...httpsEnv,
        ...options.env,
      },
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const ok = await call(new URL("/ping", base), "GET").then(
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
    base,
    start,
    stop,
    pid: () => child?.pid,
    async query(q, db) {
      const url = new URL("/query", base);
      url.searchParams.set("q", q);
      url.searchParams.set("epoch", "ms");
      if (db !== undefined) url.searchParams.set("db", db);
      return JSON.parse((await call(url, "POST")).text) as Awaited<ReturnType<Influxd["query"]>>;
    },
    async close() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
