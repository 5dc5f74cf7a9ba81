/**
 * Steward as the soak runs it, as users do: `steward start --config steward.yaml` in a child
 * process, in a working directory of its own, with the durable queue (the default) under
 * ./data/audit-queue, every local audit destination on (Parquet, table files, objectData JSON
 * files, InfluxDB 1.x), batching at the defaults (1000 events or 20 s), an API token, and the
 * config UI on loopback so its `GET /status` shows the queue's backlog and what each destination
 * wrote. Also: what the process uses (VmRSS, VmHWM, CPU time, from /proc), what the machine
 * around it uses, and the log's size.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.ts";
import type { Influxd } from "../helpers/influxd.ts";
import { type StewardProcess, spawnSteward } from "../helpers/steward-process.ts";
import { CLOCK_TICKS_PER_S, cpuSeconds } from "./process-stats.ts";

export const SOAK_TOKEN = "soak-token-0123456789abcdef";
export const SOAK_DATABASE = "steward_soak";

export interface SoakSteward {
  proc: StewardProcess;
  pid: number;
  ingestUrl: string;
  /** Headers of every POST: token and client version. */
  headers: Record<string, string>;
  status(): Promise<StewardStatus>;
  /** Where each destination writes, and the log. */
  directories: { parquet: string; tablefile: string; json: string; queue: string };
}

/** The members of `GET /status` the soak reads. */
export interface StewardStatus {
  audit: {
    events: { received: number; accepted: number; processed: number; failed: number; waiting: number };
    written: Record<string, number>;
    /** The events a destination skips by design (json: those without objectData), by destination. */
    skipped?: Record<string, { events: number }>;
  };
}

function writeConfig(dir: string, ports: { ingest: number; rest: number; ui: number }, influxd: Influxd) {
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${ports.ingest}
    apiToken: ${SOAK_TOKEN}
    rateLimit:
      maxPerMinute: 100000000
    destination:
      enable: true
      type: parquet,tablefile,json,timeseriesdb
      parquet:
        exportDirectory: ./out/parquet
      tablefile:
        exportDirectory: ./out/tablefile
      timeseriesdb:
        measurementName: audit_event
      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  timeseriesdbConfig:
    version: 1
    host: ${influxd.host}
    port: ${influxd.port}
    v1Config:
      dbName: ${SOAK_DATABASE}
      retentionPolicy:
        name: audit_rp
        duration: 30d
  restServer:
    port: ${ports.rest}
    # As in production: without a token the REST API logs a WARN, which the soak counts as a failure.
    apiToken: ${SOAK_TOKEN}
  configVisualisation:
    enable: true
    host: 127.0.0.1
    port: ${ports.ui}
`,
  );
}

export async function startSoakSteward(dir: string, influxd: Influxd): Promise<SoakSteward> {
  const ports = { ingest: await freePort(), rest: await freePort(), ui: await freePort() };
  writeConfig(dir, ports, influxd);
  const proc = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await proc.waitFor(/steward ready/, 60_000);
  const statusUrl = `http://127.0.0.1:${ports.ui}/status`;
  return {
    proc,
    pid: proc.child.pid as number,
    ingestUrl: `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${SOAK_TOKEN}`,
      "x-audit-client-version": "0.3.2",
    },
    async status() {
      const response = await fetch(statusUrl);
      if (!response.ok) throw new Error(`GET /status answered ${response.status}`);
      return (await response.json()) as StewardStatus;
    },
    directories: {
      parquet: join(dir, "out", "parquet"),
      tablefile: join(dir, "out", "tablefile"),
      json: join(dir, "out", "json"),
      queue: join(dir, "data", "audit-queue"),
    },
  };
}

export interface Sample {
  /** ms since the load began. */
  atMs: number;
  rssKb: number;
  /** CPU time (user + system) used so far, in ms: Steward, influxd, this process (the client). */
  stewardCpuMs: number;
  influxdCpuMs: number;
  clientCpuMs: number;
  /** CPU time the whole machine spent busy so far (every core), in ms. */
  machineBusyMs: number;
  logBytes: number;
}

const cpuMsOf = (pid: number | undefined): number => cpuSeconds(pid) * 1000;

function machineBusyMs(): number {
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is in user).
  const [, ...ticks] = (readFileSync("/proc/stat", "utf8").split("\n")[0] as string).trim().split(/\s+/);
  const busy = [0, 1, 2, 5, 6, 7].reduce((sum, i) => sum + Number(ticks[i] ?? 0), 0);
  return (busy * 1000) / CLOCK_TICKS_PER_S;
}

/**
 * VmRSS of Steward, the CPU time of Steward, influxd, this process and the whole machine (to tell
 * Steward's own slowdowns from a busy machine), and the bytes under the log directory.
 */
export function takeSample(
  pids: { steward: number; influxd: number | undefined },
  queueDirectory: string,
  atMs: number,
): Sample {
  const status = readFileSync(`/proc/${pids.steward}/status`, "utf8");
  const client = process.cpuUsage();
  return {
    atMs,
    rssKb: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN),
    stewardCpuMs: cpuMsOf(pids.steward),
    influxdCpuMs: cpuMsOf(pids.influxd),
    clientCpuMs: (client.user + client.system) / 1000,
    machineBusyMs: machineBusyMs(),
    logBytes: bytesUnder(queueDirectory),
  };
}

function bytesUnder(directory: string): number {
  let total = 0;
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      total += statSync(join(entry.parentPath, entry.name)).size;
    } catch {
      // deleted between the listing and the stat: a segment every destination was done with
    }
  }
  return total;
}

/** Steward's log lines at WARN or ERROR, and any line that is not a log line (a stack trace). */
export function unexpectedLogLines(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => !/^\d{4}-\d\d-\d\dT[\d:.]+Z (info|verbose|debug): /.test(line));
}
