/**
 * Ingest benchmark (issue 3): autocannon, 50 connections, POST /api/v1/audit-event with a valid
 * ~1 KB envelope (token and version header on, rate limit high) against our node server, and a
 * trivial node:http 202 server in the same run. Servers run in child processes so the peak RSS
 * (VmHWM) is theirs, bundled and run by plain `node` as `npm start` runs Steward. Targets: ≥ 0.5× the trivial server, p99 ≤ 10 ms, peak RSS ≤ 120 MB, no
 * per-request log line at info. The same ingest runs twice: with the in-memory queue and with the
 * durable queue (every 202 after an fdatasync of the log, pipelined group commit), and the
 * machine's fdatasync latency (appending, and into preallocated zeros as the log writes) is
 * measured in the same run, on the same disk (under ./data/). Last, when `wrk` is installed, each
 * of the trivial, in-memory and durable servers runs fresh under `wrk -t1 -c50` (a client that
 * drives it harder than autocannon), for the peak RSS at the highest rate it sustains
 * (`BENCH_WRK_S`, default 10 s), and then `steward start` itself runs under wrk with no destination
 * and with Parquet selected, against the trivial server (ingest-steward-rounds.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { bundle } from "../../bin/bundle.mjs";
import { NODE_FLAGS } from "../../bin/node-flags.mjs";
import { printStewardRounds, type StewardRoundsFigures, stewardRounds } from "./ingest-steward-rounds.ts";
import { median, percentile } from "./order-statistics.ts";
import { peakRssMb } from "./process-stats.ts";
import { type WrkResult, wrkAvailable, wrkPost } from "./wrk-load.ts";

const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 12);
const WRK_S = Number(process.env.BENCH_WRK_S ?? 10);
const ROUNDS = 4;
const TOKEN = "bench-token-0123456789";

export interface IngestBenchFigures {
  trivialRps: number;
  ingestRps: number;
  /** Median of the per-round ratios; min and max show the spread. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /** A bare Hono app's ratio to the trivial server: the framework's floor for `ratio`. */
  bareHonoRatio: number;
  /** The same bare app also sending Steward's security and rate-limit headers. */
  bareHonoHeadersRatio: number;
  ingestP50Ms: number;
  ingestP99Ms: number;
  trivialP99Ms: number;
  ingestPeakRssMb: number;
  trivialPeakRssMb: number;
  ingestNon2xx: number;
  ingestLogLines: number;
  /** The same ingest with the durable queue on. */
  durableRps: number;
  durableRatio: number;
  durableRatioMin: number;
  durableRatioMax: number;
  durableP50Ms: number;
  durableP99Ms: number;
  durablePeakRssMb: number;
  durableNon2xx: number;
  /** Append of 1 KB + fdatasync on the disk under ./data/, measured in the same run. */
  fsyncP50Ms: number;
  fsyncP99Ms: number;
  /** The same 1 KB + fdatasync into zeros written (and synced) beforehand, as the log writes. */
  fsyncPreallocatedP50Ms: number;
  fsyncPreallocatedP99Ms: number;
  /** Each server fresh, loaded by wrk (when installed) at the highest rate it reaches. */
  wrk?: Record<"trivial" | "ingest" | "durable", WrkResult & { peakRssMb: number }>;
  /** `steward start` with no destination and with Parquet selected, under wrk (when installed). */
  steward?: StewardRoundsFigures;
}

/**
 * Latency of writing 1 KB and calling fdatasync, on the disk under ./data/: appended (the file
 * grows, so the sync commits the new size too) or, `preallocated`, into zeros written and synced
 * beforehand (data only), as the durable log writes its active segment.
 */
function measureFsync(preallocated: boolean, samples = 200): { p50: number; p99: number } {
  mkdirSync("data", { recursive: true });
  const directory = mkdtempSync(join("data", "bench-fsync-"));
  const fd = openSync(join(directory, "probe"), "w");
  const record = Buffer.alloc(1024, 120);
  const times: number[] = [];
  try {
    if (preallocated) {
      writeSync(fd, Buffer.alloc(samples * record.length));
      fdatasyncSync(fd);
    }
    for (let i = 0; i < samples; i++) {
      const started = process.hrtime.bigint();
      writeSync(fd, record, 0, record.length, i * record.length);
      fdatasyncSync(fd);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    closeSync(fd);
    rmSync(directory, { recursive: true, force: true });
  }
  return { p50: Number(percentile(times, 50).toFixed(3)), p99: Number(percentile(times, 99).toFixed(3)) };
}

/** A valid selection.state.changed envelope padded to about 1 KB. */
export function benchEnvelope(): string {
  const details = Array.from({ length: 6 }, (_, i) => ({
    qField: `Dimension field ${i}`,
    qSelectedCount: i + 1,
    qSelected: `Value ${i} of the selection, ${"x".repeat(8)}`,
  }));
  return JSON.stringify({
    schemaVersion: 1,
    eventId: "0b6f2b4e-1c1d-4d3e-9a7b-2f7c1d2e3f4a",
    timestamp: "2026-01-01T12:00:00.123Z",
    type: "selection.state.changed",
    correlationId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    source: { kind: "qlik-sense-extension", name: "audit-qs", version: "0.3.2" },
    payload: {
      context: {
        appId: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
        appName: "Sales",
        sheetId: "sheet-1",
        user: "DOMAIN\\user",
      },
      event: { selectionTxnId: "7c9e6679-7425-40de-944b-e07fc1f90ae7", details },
    },
  });
}

interface Child {
  process: ChildProcess;
  port: number;
  output: string[];
}

/**
 * The servers run bundled by plain `node`, as `npm start` runs Steward (bin/bundle.mjs), Steward's
 * with its node options (bin/node-flags.mjs).
 */
const SERVER_MODULE = fileURLToPath(bundle("test/bench/ingest-server.ts"));

async function startChild(
  kind: "ingest" | "ingest-durable" | "trivial" | "hono" | "hono-headers",
): Promise<Child> {
  // Steward's servers with Steward's node options; the trivial server and the Hono references bare.
  const flags = kind === "ingest" || kind === "ingest-durable" ? NODE_FLAGS : [];
  const child = spawn(process.execPath, [...flags, SERVER_MODULE, kind], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start`)), 20_000);
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => output.push(chunk));
    child.stdout?.on("data", (chunk: string) => {
      output.push(chunk);
      const match = /READY (\d+)/.exec(chunk);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`${kind} server exited with ${code}: ${output.join("")}`)));
  });
  return { process: child, port, output };
}

async function stopChild(child: Child): Promise<void> {
  await new Promise<void>((resolve) => {
    child.process.once("exit", () => resolve());
    child.process.kill("SIGTERM");
  });
}

async function load(port: number, path: string, duration: number) {
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    duration,
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${TOKEN}`,
      "x-audit-client-version": "0.3.2",
    },
    body: benchEnvelope(),
  });
}

/**
 * Both servers run side by side and are loaded in alternating short rounds, so each ratio compares
 * two measurements taken moments apart: on a shared machine the load from other processes
 * changes by the second, and one long run per server would mostly measure that.
 */
export async function run(): Promise<IngestBenchFigures> {
  const trivial = await startChild("trivial");
  const ingest = await startChild("ingest");
  const hono = await startChild("hono");
  const honoHeaders = await startChild("hono-headers");
  const durable = await startChild("ingest-durable");
  await load(trivial.port, "/", WARMUP_S);
  await load(hono.port, "/", WARMUP_S);
  await load(honoHeaders.port, "/", WARMUP_S);
  await load(ingest.port, "/api/v1/audit-event", WARMUP_S);
  await load(durable.port, "/api/v1/audit-event", WARMUP_S);
  const linesBefore = ingest.output
    .join("")
    .split("\n")
    .filter((line) => line.trim() !== "").length;

  const roundSeconds = Math.max(1, Math.round(DURATION_S / ROUNDS));
  type Result = Awaited<ReturnType<typeof load>>;
  const rounds: Array<{
    trivial: Result;
    ingest: Result;
    hono: Result;
    honoHeaders: Result;
    durable: Result;
  }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const loadTrivial = () => load(trivial.port, "/", roundSeconds);
    const loadIngest = () => load(ingest.port, "/api/v1/audit-event", roundSeconds);
    const loadHono = () => load(hono.port, "/", roundSeconds);
    const loadHonoHeaders = () => load(honoHeaders.port, "/", roundSeconds);
    const loadDurable = () => load(durable.port, "/api/v1/audit-event", roundSeconds);
    // Alternate the order so no server always runs first (or last) in a round.
    if (round % 2 === 0) {
      const t = await loadTrivial();
      const i = await loadIngest();
      const d = await loadDurable();
      const h = await loadHono();
      rounds.push({ trivial: t, ingest: i, durable: d, hono: h, honoHeaders: await loadHonoHeaders() });
    } else {
      const hh = await loadHonoHeaders();
      const h = await loadHono();
      const d = await loadDurable();
      const i = await loadIngest();
      rounds.push({ trivial: await loadTrivial(), ingest: i, durable: d, hono: h, honoHeaders: hh });
    }
  }

  const logLines =
    ingest.output
      .join("")
      .split("\n")
      .filter((line) => line.trim() !== "").length - linesBefore;
  const rss = peakRssMb(ingest.process.pid as number);
  const trivialRss = peakRssMb(trivial.process.pid as number);
  const durableRss = peakRssMb(durable.process.pid as number);
  const fsync = measureFsync(false);
  const fsyncPreallocated = measureFsync(true);
  await stopChild(trivial);
  await stopChild(ingest);
  await stopChild(hono);
  await stopChild(honoHeaders);
  await stopChild(durable);

  const ratios = rounds.map((r) => r.ingest.requests.average / r.trivial.requests.average);
  const durableRatios = rounds.map((r) => r.durable.requests.average / r.trivial.requests.average);
  const figures: IngestBenchFigures = {
    trivialRps: Math.round(median(rounds.map((r) => r.trivial.requests.average))),
    ingestRps: Math.round(median(rounds.map((r) => r.ingest.requests.average))),
    ratio: Number(median(ratios).toFixed(3)),
    ratioMin: Number(Math.min(...ratios).toFixed(3)),
    ratioMax: Number(Math.max(...ratios).toFixed(3)),
    bareHonoRatio: Number(
      median(rounds.map((r) => r.hono.requests.average / r.trivial.requests.average)).toFixed(3),
    ),
    bareHonoHeadersRatio: Number(
      median(rounds.map((r) => r.honoHeaders.requests.average / r.trivial.requests.average)).toFixed(3),
    ),
    ingestP50Ms: median(rounds.map((r) => r.ingest.latency.p50)),
    ingestP99Ms: median(rounds.map((r) => r.ingest.latency.p99)),
    trivialP99Ms: median(rounds.map((r) => r.trivial.latency.p99)),
    ingestPeakRssMb: Number(rss.toFixed(1)),
    trivialPeakRssMb: Number(trivialRss.toFixed(1)),
    ingestNon2xx: rounds.reduce((sum, r) => sum + r.ingest.non2xx + r.ingest.errors, 0),
    ingestLogLines: logLines,
    durableRps: Math.round(median(rounds.map((r) => r.durable.requests.average))),
    durableRatio: Number(median(durableRatios).toFixed(3)),
    durableRatioMin: Number(Math.min(...durableRatios).toFixed(3)),
    durableRatioMax: Number(Math.max(...durableRatios).toFixed(3)),
    durableP50Ms: median(rounds.map((r) => r.durable.latency.p50)),
    durableP99Ms: median(rounds.map((r) => r.durable.latency.p99)),
    durablePeakRssMb: Number(durableRss.toFixed(1)),
    durableNon2xx: rounds.reduce((sum, r) => sum + r.durable.non2xx + r.durable.errors, 0),
    fsyncP50Ms: fsync.p50,
    fsyncP99Ms: fsync.p99,
    fsyncPreallocatedP50Ms: fsyncPreallocated.p50,
    fsyncPreallocatedP99Ms: fsyncPreallocated.p99,
  };
  if (wrkAvailable()) figures.wrk = await wrkRounds();
  if (wrkAvailable()) figures.steward = await stewardRounds(stewardLoad());
  console.log(
    `ingest benchmark (${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${roundSeconds} s, ${benchEnvelope().length}-byte envelope; medians)`,
  );
  console.log(
    `  trivial node:http 202: ${figures.trivialRps} req/s, p99 ${figures.trivialP99Ms} ms, peak RSS ${figures.trivialPeakRssMb} MB`,
  );
  console.log(
    `  POST /api/v1/audit-event: ${figures.ingestRps} req/s, p50 ${figures.ingestP50Ms} ms, p99 ${figures.ingestP99Ms} ms`,
  );
  console.log(
    `  ratio ${figures.ratio}x (rounds ${figures.ratioMin}-${figures.ratioMax}; target >= 0.5), peak RSS ${figures.ingestPeakRssMb} MB (target <= 120)`,
  );
  console.log(
    `  durable queue on (202 after fdatasync, pipelined group commit): ${figures.durableRps} req/s, p50 ${figures.durableP50Ms} ms, p99 ${figures.durableP99Ms} ms, ratio ${figures.durableRatio}x (rounds ${figures.durableRatioMin}-${figures.durableRatioMax}), peak RSS ${figures.durablePeakRssMb} MB, non-2xx/errors ${figures.durableNon2xx}`,
  );
  console.log(
    `  fdatasync of a 1 KB append on this disk (./data/): p50 ${figures.fsyncP50Ms} ms, p99 ${figures.fsyncP99Ms} ms; into preallocated zeros: p50 ${figures.fsyncPreallocatedP50Ms} ms, p99 ${figures.fsyncPreallocatedP99Ms} ms`,
  );
  console.log(
    `  reference: a bare Hono POST (parse JSON, answer 202) runs at ${figures.bareHonoRatio}x the trivial server, ${figures.bareHonoHeadersRatio}x with Steward's security and rate-limit headers`,
  );
  console.log(
    `  non-2xx/errors ${figures.ingestNon2xx}, log lines during load ${figures.ingestLogLines} (target 0)`,
  );
  if (figures.wrk === undefined) {
    console.log("  wrk not installed (apt-get install wrk): the peak RSS at wrk's rate was not measured");
  } else {
    const { trivial, ingest, durable } = figures.wrk;
    console.log(
      `  wrk -t1 -c${CONNECTIONS}, ${WRK_S} s, each server fresh (peak RSS = VmHWM after the load):`,
    );
    for (const [name, result] of Object.entries(figures.wrk)) {
      console.log(
        `    ${name}: ${result.requestsPerSecond} req/s (${(result.requestsPerSecond / trivial.requestsPerSecond).toFixed(2)}x), p99 ${result.p99Ms} ms, peak RSS ${result.peakRssMb} MB, non-2xx ${result.non2xx}`,
      );
    }
    console.log(
      `    peak RSS target <= 120 MB: in-memory ${ingest.peakRssMb <= 120 ? "met" : "NOT met"}, durable ${durable.peakRssMb <= 120 ? "met" : "NOT met"}`,
    );
  }
  if (figures.steward !== undefined) printStewardRounds(figures.steward);
  return figures;
}

/** What `steward start` is loaded with, beside a fresh trivial server. */
function stewardLoad() {
  return {
    token: TOKEN,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${TOKEN}`,
      "x-audit-client-version": "0.3.2",
    },
    body: benchEnvelope(),
    startTrivial: async () => {
      const child = await startChild("trivial");
      return {
        url: `http://127.0.0.1:${child.port}/`,
        pid: child.process.pid as number,
        stop: () => stopChild(child),
      };
    },
  };
}

/** Each server fresh, loaded by wrk for WRK_S seconds after a 2 s warm-up; VmHWM read after. */
async function wrkRounds(): Promise<NonNullable<IngestBenchFigures["wrk"]>> {
  const headers = {
    "content-type": "application/json",
    authorization: `Bearer ${TOKEN}`,
    "x-audit-client-version": "0.3.2",
  };
  const measure = async (kind: "trivial" | "ingest" | "ingest-durable") => {
    const child = await startChild(kind);
    try {
      const url = `http://127.0.0.1:${child.port}${kind === "trivial" ? "/" : "/api/v1/audit-event"}`;
      const options = { url, headers, body: benchEnvelope(), connections: CONNECTIONS };
      await wrkPost({ ...options, seconds: 2 });
      const result = await wrkPost({ ...options, seconds: WRK_S });
      if (result.non2xx > 0) throw new Error(`${kind} answered ${result.non2xx} non-2xx responses to wrk`);
      return { ...result, peakRssMb: Number(peakRssMb(child.process.pid as number).toFixed(1)) };
    } finally {
      await stopChild(child);
    }
  };
  return {
    trivial: await measure("trivial"),
    ingest: await measure("ingest"),
    durable: await measure("ingest-durable"),
  };
}
