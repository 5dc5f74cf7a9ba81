/**
 * The ingest benchmark's rounds of `steward start` itself, as users run it (bin/steward.js: the
 * bundle, Steward's node options), in the two configurations a user meets, against a trivial
 * `node:http` server in the same run:
 *
 * - no destination selected: nothing logged, nothing written;
 * - Parquet selected: every 202 after the durable log's fdatasync, and Parquet files written from
 *   the log (batches of 1000).
 *
 * The three servers run side by side and are loaded by `wrk -t1` in alternating rounds (the order
 * reversed every round, `BENCH_STEWARD_ROUNDS` rounds of `BENCH_STEWARD_ROUND_S` s), first over 50
 * connections, then over 4: with 50 a server is saturated and most of an answer's time is spent
 * queued behind the other 49 requests; with 4 the answer time is mostly the server's own, and a
 * thread held by other work (a batch being written) shows in the p99. Reported for each: the
 * median of the per-round ratios with their spread, p50 and p99 (medians of the rounds), and the
 * load average after each round; peak RSS (VmHWM) after all rounds. Beside wrk's p99, each
 * Steward reports its own (steward-answer-probe.ts): the time from a request's headers to its
 * answer's last byte inside Steward, which leaves out what wrk's figure adds on a shared machine
 * (the client and the server waiting for a CPU, bytes waiting in socket buffers). And the CPU each
 * server spent per request (medians of the rounds, read from /proc around each round): its main
 * thread's, which bounds the rate once that thread is busy all the time, and all its threads'.
 * Stewards' figures include the probe's own small cost per answer. Targets (at 50 connections):
 * no destination ≥ 0.6×; Parquet selected ≥ 0.5×, p99 ≤ 10 ms, peak RSS ≤ 130 MB.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bundle } from "../../bin/bundle.mjs";
import { freePort } from "../helpers/free-port.ts";
import { type StewardProcess, spawnSteward } from "../helpers/steward-process.ts";
import { median } from "./order-statistics.ts";
import { cpuSeconds, loadAverage1, mainThreadCpuSeconds, peakRssMb } from "./process-stats.ts";
import { type WrkResult, wrkPost } from "./wrk-load.ts";

const ROUNDS = Number(process.env.BENCH_STEWARD_ROUNDS ?? 4);
const ROUND_S = Number(process.env.BENCH_STEWARD_ROUND_S ?? 5);
/** Saturating, then light. */
const CONNECTION_COUNTS = [50, 4] as const;

type Configuration = "none" | "parquet";

export interface StewardConfigurationFigures {
  requestsPerSecond: number;
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Inside Steward (steward-answer-probe.ts): medians of the rounds. */
  answerP99Ms: number;
  answerP999Ms: number;
  cpu: CpuPerRequest;
}

/** CPU time per request during the rounds, µs: medians of the rounds. */
export interface CpuPerRequest {
  mainThreadUs: number;
  allThreadsUs: number;
}

/** The rounds over one number of connections. */
export interface StewardLoadFigures {
  connections: number;
  trivial: { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpu: CpuPerRequest };
  none: StewardConfigurationFigures;
  parquet: StewardConfigurationFigures;
  loadAverages: number[];
}

export interface StewardRoundsFigures {
  loads: StewardLoadFigures[];
  /** After all rounds. */
  peakRssMb: Record<Configuration, number>;
}

/** What the rounds post, and the trivial server to compare with (started and stopped here). */
export interface StewardRoundsLoad {
  token: string;
  headers: Record<string, string>;
  body: string;
  startTrivial(): Promise<{ url: string; pid: number; stop(): Promise<void> }>;
}

function config(configuration: Configuration, token: string, port: number, restPort: number): string {
  const destination =
    configuration === "none"
      ? "      enable: false\n"
      : "      enable: true\n      type: parquet\n      parquet:\n        exportDirectory: ./out/parquet\n";
  return `Service:
  auditEvents:
    port: ${port}
    apiToken: ${token}
    rateLimit:
      enable: false
    queue:
      durable: ${configuration === "parquet"}
      directory: ./queue
    destination:
${destination}  restServer:
    port: ${restPort}
`;
}

interface Started {
  steward: StewardProcess;
  url: string;
  directory: string;
  /** Where steward-answer-probe.ts appends a line on each SIGUSR2. */
  probeFile: string;
}

async function startSteward(configuration: Configuration, token: string): Promise<Started> {
  // Under ./data/, where the default configuration keeps the queue: the disk `npm start` syncs to.
  mkdirSync(join(process.cwd(), "data"), { recursive: true });
  const directory = mkdtempSync(join(process.cwd(), "data", `steward-bench-ingest-${configuration}-`));
  const port = await freePort();
  writeFileSync(join(directory, "steward.yaml"), config(configuration, token, port, await freePort()));
  const probeFile = join(directory, "answer-times.txt");
  const steward = spawnSteward(["start", "--config", "steward.yaml"], {
    cwd: directory,
    nodeArgs: ["--import", bundle("test/bench/steward-answer-probe.ts")],
    env: { STEWARD_ANSWER_PROBE_FILE: probeFile },
  });
  await steward.waitFor(/steward ready/, 60_000);
  return { steward, url: `http://127.0.0.1:${port}/api/v1/audit-event`, directory, probeFile };
}

/** Asks the probe for the answer times since the last ask: `[count, p50, p99, p99.9, max]` in ms. */
async function answerTimes(started: Started): Promise<number[]> {
  const lines = () =>
    existsSync(started.probeFile) ? readFileSync(started.probeFile, "utf8").trim().split("\n") : [];
  const before = lines().length;
  started.steward.child.kill("SIGUSR2");
  for (let waited = 0; lines().length === before; waited += 10) {
    if (waited > 5_000) throw new Error("the answer-time probe did not answer within 5 s");
    await sleep(10);
  }
  return (lines().at(-1) as string).split(" ").map(Number);
}

/** Milliseconds to two decimals. */
const ms = (value: number): number => Number(value.toFixed(2));

function summary(
  results: WrkResult[],
  trivial: WrkResult[],
  answers: number[][],
  cpu: CpuPerRequest[],
): StewardConfigurationFigures {
  const ratios = results.map(
    (result, i) => result.requestsPerSecond / (trivial[i] as WrkResult).requestsPerSecond,
  );
  return {
    requestsPerSecond: Math.round(median(results.map((r) => r.requestsPerSecond))),
    ratio: Number(median(ratios).toFixed(3)),
    ratioMin: Number(Math.min(...ratios).toFixed(3)),
    ratioMax: Number(Math.max(...ratios).toFixed(3)),
    p50Ms: ms(median(results.map((r) => r.p50Ms))),
    p99Ms: ms(median(results.map((r) => r.p99Ms))),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    answerP99Ms: ms(median(answers.map((a) => a[2] as number))),
    answerP999Ms: ms(median(answers.map((a) => a[3] as number))),
    cpu: cpuMedians(cpu),
  };
}

function cpuMedians(rounds: CpuPerRequest[]): CpuPerRequest {
  const us = (pick: (round: CpuPerRequest) => number) => Number(median(rounds.map(pick)).toFixed(1));
  return { mainThreadUs: us((r) => r.mainThreadUs), allThreadsUs: us((r) => r.allThreadsUs) };
}

/** One round's load, and the CPU `pid` spent on it per request. */
async function measured(
  pid: number,
  run: () => Promise<WrkResult>,
): Promise<{ result: WrkResult; cpu: CpuPerRequest }> {
  const [all, main] = [cpuSeconds(pid), mainThreadCpuSeconds(pid)];
  const result = await run();
  const requests = result.requestsPerSecond * ROUND_S;
  const perRequest = (seconds: number) => (requests > 0 ? (seconds * 1e6) / requests : Number.NaN);
  return {
    result,
    cpu: {
      mainThreadUs: perRequest(mainThreadCpuSeconds(pid) - main),
      allThreadsUs: perRequest(cpuSeconds(pid) - all),
    },
  };
}

export async function stewardRounds(load: StewardRoundsLoad): Promise<StewardRoundsFigures> {
  const trivial = await load.startTrivial();
  const started: Partial<Record<Configuration, Started>> = {};
  try {
    started.none = await startSteward("none", load.token);
    started.parquet = await startSteward("parquet", load.token);
    const servers = {
      trivial: { url: trivial.url, pid: trivial.pid },
      none: { url: started.none.url, pid: started.none.steward.child.pid as number },
      parquet: { url: started.parquet.url, pid: started.parquet.steward.child.pid as number },
    };
    const loads: StewardLoadFigures[] = [];
    const stewards = { none: started.none, parquet: started.parquet };
    for (const connections of CONNECTION_COUNTS)
      loads.push(await roundsOver(connections, servers, stewards, load));
    const rss = (name: Configuration) =>
      Number(peakRssMb(started[name]?.steward.child.pid as number).toFixed(1));
    return { loads, peakRssMb: { none: rss("none"), parquet: rss("parquet") } };
  } finally {
    await trivial.stop();
    for (const { steward, directory } of Object.values(started)) {
      steward.child.kill("SIGTERM");
      await steward.exited(20_000).catch(() => steward.child.kill("SIGKILL"));
      rmSync(directory, { recursive: true, force: true });
    }
  }
}

type Servers = Record<"trivial" | Configuration, { url: string; pid: number }>;

async function roundsOver(
  connections: number,
  servers: Servers,
  stewards: Record<Configuration, Started>,
  load: StewardRoundsLoad,
): Promise<StewardLoadFigures> {
  const wrk = (url: string, seconds: number) =>
    wrkPost({ url, headers: load.headers, body: load.body, seconds, connections });
  for (const { url } of Object.values(servers)) await wrk(url, 2);
  const results: Record<keyof Servers, WrkResult[]> = { trivial: [], none: [], parquet: [] };
  const cpu: Record<keyof Servers, CpuPerRequest[]> = { trivial: [], none: [], parquet: [] };
  const answers: Record<Configuration, number[][]> = { none: [], parquet: [] };
  const loadAverages: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = (["trivial", "none", "parquet"] as const).slice();
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      if (name !== "trivial") await answerTimes(stewards[name]);
      const { url, pid } = servers[name];
      const { result, cpu: used } = await measured(pid, () => wrk(url, ROUND_S));
      results[name].push(result);
      cpu[name].push(used);
      if (name !== "trivial") answers[name].push(await answerTimes(stewards[name]));
    }
    loadAverages.push(loadAverage1());
  }
  return {
    connections,
    trivial: {
      requestsPerSecond: Math.round(median(results.trivial.map((r) => r.requestsPerSecond))),
      p50Ms: ms(median(results.trivial.map((r) => r.p50Ms))),
      p99Ms: ms(median(results.trivial.map((r) => r.p99Ms))),
      cpu: cpuMedians(cpu.trivial),
    },
    none: summary(results.none, results.trivial, answers.none, cpu.none),
    parquet: summary(results.parquet, results.trivial, answers.parquet, cpu.parquet),
    loadAverages,
  };
}

const cpuText = ({ mainThreadUs, allThreadsUs }: CpuPerRequest) =>
  `CPU per request ${mainThreadUs} µs on the main thread, ${allThreadsUs} µs in all`;

export function printStewardRounds(figures: StewardRoundsFigures): void {
  for (const { connections, trivial, none, parquet, loadAverages } of figures.loads) {
    console.log(
      `  steward start, wrk -t1 -c${connections}, ${ROUNDS} alternating rounds of ${ROUND_S} s (medians; load average after each round ${loadAverages.map((l) => l.toFixed(1)).join(", ")}):`,
    );
    console.log(
      `    trivial node:http 202: ${trivial.requestsPerSecond} req/s, p50 ${trivial.p50Ms} ms, p99 ${trivial.p99Ms} ms, ${cpuText(trivial.cpu)}`,
    );
    const line = (name: string, f: StewardConfigurationFigures, target: string) =>
      console.log(
        `    ${name}: ${f.requestsPerSecond} req/s, ${f.ratio}x (rounds ${f.ratioMin}-${f.ratioMax}), p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms (inside Steward: p99 ${f.answerP99Ms} ms, p99.9 ${f.answerP999Ms} ms), ${cpuText(f.cpu)}, non-2xx ${f.non2xx}${connections === 50 ? ` (target ${target})` : ""}`,
      );
    line("no destination selected", none, ">= 0.6x");
    line("Parquet selected (durable log + Parquet files)", parquet, ">= 0.5x, p99 <= 10 ms");
  }
  const { none, parquet } = figures.peakRssMb;
  console.log(
    `    peak RSS after all rounds: no destination ${none} MB, Parquet selected ${parquet} MB (target <= 130 MB)`,
  );
}
