/**
 * Soak of the durable local audit queue (`npm run bench -- soak`; `BENCH_SOAK_S` seconds of load,
 * default 600; CI runs 60). Steward runs as users run it (soak-steward.ts: `steward start` with a
 * config file, durable queue on, Parquet, table files, objectData JSON files and InfluxDB 1.x on,
 * a real `influxd` beside it), fed a realistic mix of events (soak-events.ts).
 *
 * 1. Capacity: autocannon flat out against that same process, after a warm-up (soak-capacity.ts).
 * 2. Once the destinations have taken the capacity run's backlog, the paced client
 *    (soak-paced-load.ts) posts at half that capacity for the whole run, cut into 20 windows;
 *    per window: latency p50/p99 (from issue to answer), Steward's VmRSS (sampled every second, at
 *    most), the CPU used by Steward, influxd, the client and the rest of the machine (a shared
 *    machine's neighbours show there), the size of the log directory, the backlog from
 *    `GET /status`, the load average.
 * 3. After the load, wait until every destination wrote every event, stop Steward (SIGTERM), and
 *    read back what each destination holds.
 *
 * Verdicts, each printed as PASS or FAIL; any FAIL sets a non-zero exit code:
 * - RSS growth and p99 growth over the second half ≤ 10 %. Growth (soak-windows.ts): the median of
 *   the last three windows against the median of the first three windows of the second half.
 *   Judged only in runs of at least GROWTH_JUDGED_FROM_S (5 minutes): in a 60 s run the windows
 *   are 3 s, and a window's RSS and p99 swing by ±20 % with garbage collection and the
 *   neighbours' load (five 60 s runs on 2026-11-24: −24 % to +22 %), so the 60 s version in CI
 *   prints both growths and judges the rest.
 * - Every request issued on schedule and answered 202.
 * - Steward's log holds no ERROR, no WARN and nothing else that is not a log line.
 * - The destinations drain within DRAIN_TIMEOUT_S of the end of the load, and Steward exits 0.
 * - Counts: Parquet rows = QVD rows = InfluxDB points = events acknowledged; JSON files =
 *   acknowledged events carrying objectData; each event exactly once (nothing crashed, so nothing
 *   was replayed).
 *
 * InfluxDB runs with its default limits (1,000,000 series per database, 100,000 values per tag),
 * as users run it: the audit identifiers are fields, so a soak of any length stays far below
 * them, and a point refused for them would fail the log and count verdicts. It runs at the lowest
 * CPU priority (nice 19): it shares the machine's cores with Steward, and its cache snapshots and
 * compactions would otherwise show in Steward's latency as growth that is InfluxDB's (its CPU is
 * in the table).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { cpus, setPriority } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  influxEventIds,
  jsonEventIds,
  parquetEventIds,
  qvdEventIds,
} from "../helpers/audit-destination-contents.ts";
import { startInfluxd } from "../helpers/influxd.ts";
import { loadAverage1, peakRssMb } from "./process-stats.ts";
import { measureCapacity } from "./soak-capacity.ts";
import { checkDestination, type DestinationCheck, destinationCheckPasses, Outcomes } from "./soak-counts.ts";
import { carriesObjectData, soakEvents } from "./soak-events.ts";
import { type LoadWindow, runPacedLoad } from "./soak-paced-load.ts";
import {
  type Sample,
  SOAK_DATABASE,
  type SoakSteward,
  startSoakSteward,
  takeSample,
  unexpectedLogLines,
} from "./soak-steward.ts";
import {
  type Growth,
  growthOverSecondHalf,
  median,
  quantile,
  type WindowFigures,
  windowTable,
} from "./soak-windows.ts";

const WINDOWS = 20;
const CAPACITY_S = 5;
const GROWTH_LIMIT = 0.1;
/** Runs shorter than this print the growth figures without judging them (see above). */
const GROWTH_JUDGED_FROM_S = 300;
const SETTLE_TIMEOUT_S = 300;
const DRAIN_TIMEOUT_S = 120;
/** influxd yields the CPU to Steward and the client (see the header). */
const INFLUXD_NICE = 19;

export interface SoakFigures {
  durationS: number;
  windowS: number;
  capacityRps: number;
  capacityP99Ms: number;
  rate: number;
  issued: number;
  accepted: number;
  windows: WindowFigures[];
  rss: Growth;
  p99: Growth;
  peakRssMb: number;
  settleS: number;
  drainS: number | undefined;
  exitCode: number | null;
  unexpectedLogLines: string[];
  destinations: DestinationCheck[];
  passed: boolean;
}

function soakSeconds(): number {
  const text = process.env.BENCH_SOAK_S ?? "600";
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < WINDOWS)
    throw new Error(`BENCH_SOAK_S must be a number of seconds, at least ${WINDOWS}; got "${text}"`);
  return seconds;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds; the seconds it took, or undefined after `timeoutS`. */
async function secondsUntil(done: () => Promise<boolean>, timeoutS: number): Promise<number | undefined> {
  const started = performance.now();
  for (;;) {
    if (await done()) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutS * 1000) return undefined;
    await sleep(1000);
  }
}

/** CPU used between two samples, in % of one core. */
function cpuBetween(from: Sample | undefined, to: Sample | undefined): WindowFigures["cpuPct"] {
  if (from === undefined || to === undefined || to.atMs <= from.atMs)
    return { steward: 0, influxd: 0, client: 0, other: 0 };
  const pct = (pick: (s: Sample) => number) => ((pick(to) - pick(from)) / (to.atMs - from.atMs)) * 100;
  const steward = pct((s) => s.stewardCpuMs);
  const influxd = pct((s) => s.influxdCpuMs);
  const client = pct((s) => s.clientCpuMs);
  const other = Math.max(0, pct((s) => s.machineBusyMs) - steward - influxd - client);
  return { steward, influxd, client, other };
}

function windowFigures(
  load: LoadWindow[],
  samples: Sample[],
  extras: { backlog: number[]; load1: number[] },
  windowMs: number,
): WindowFigures[] {
  return load.map((window) => {
    const from = window.index * windowMs;
    const to = from + windowMs;
    const inside = samples.filter((s) => s.atMs >= from && s.atMs < to);
    const before = samples.filter((s) => s.atMs < from).at(-1) ?? samples[0];
    const rss = inside.map((s) => s.rssKb / 1024);
    let answered = 0;
    for (const [status, count] of window.statuses) if (status !== 0) answered += count;
    return {
      index: window.index,
      endS: to / 1000,
      issued: window.issued,
      answered,
      failed: window.issued - (window.statuses.get(202) ?? 0),
      p50Ms: quantile(window.latenciesMs, 0.5),
      p99Ms: quantile(window.latenciesMs, 0.99),
      maxMs: window.latenciesMs.at(-1) ?? 0,
      rssMb: median(rss),
      rssMaxMb: Math.max(0, ...rss),
      cpuPct: cpuBetween(before, inside.at(-1)),
      logMb: Math.max(0, ...inside.map((s) => s.logBytes / 2 ** 20)),
      backlog: extras.backlog[window.index] ?? -1,
      load1: extras.load1[window.index] ?? 0,
    };
  });
}

function commit(): string {
  try {
    const hash = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${hash} (with uncommitted changes)` : hash;
  } catch {
    return "unknown";
  }
}

/** Every thread of `pid` at INFLUXD_NICE (on Linux a priority is per thread; new ones inherit it). */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  for (const thread of readdirSync(`/proc/${pid}/task`)) setPriority(Number(thread), INFLUXD_NICE);
}

const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)} %`;

export async function run(): Promise<SoakFigures> {
  const durationS = soakSeconds();
  const windowMs = (durationS * 1000) / WINDOWS;
  mkdirSync("data", { recursive: true });
  const dir = mkdtempSync(join(process.cwd(), "data", "soak-"));
  const influxd = await startInfluxd();
  lowerPriority(influxd.pid());
  let steward: SoakSteward | undefined;
  try {
    console.log(
      `soak of the durable audit queue: commit ${commit()}, ${new Date().toISOString()}, ${cpus().length} CPUs, load average ${loadAverage1()}, ${durationS} s of load in ${WINDOWS} windows of ${windowMs / 1000} s`,
    );
    const running = await startSoakSteward(dir, influxd);
    steward = running;
    const events = soakEvents();
    const outcomes = new Outcomes();
    const next = () => {
      const seq = outcomes.take();
      return { seq, body: events.body(seq) };
    };
    const answered = (seq: number, status: number) => outcomes.note(seq, status);
    const target = { url: running.ingestUrl, headers: running.headers, next, answered };

    const capacity = await measureCapacity({ ...target, seconds: CAPACITY_S });
    const rate = Math.max(1, Math.round(capacity.rps / 2));
    console.log(
      `  capacity: ${capacity.rps} events/s (autocannon, 50 connections, ${capacity.requests} requests in ${capacity.seconds} s after a warm-up; p50 ${capacity.p50Ms} ms, p99 ${capacity.p99Ms} ms; not 202: ${capacity.failed}); soak rate ${rate} events/s`,
    );
    const settleS = await secondsUntil(
      async () => (await running.status()).audit.events.waiting === 0,
      SETTLE_TIMEOUT_S,
    );
    if (settleS === undefined)
      throw new Error(
        `the capacity run's backlog was not handed to the destinations in ${SETTLE_TIMEOUT_S} s`,
      );
    console.log(`  the destinations took the capacity run's backlog in ${settleS.toFixed(1)} s`);

    const samples: Sample[] = [];
    const backlog: number[] = [];
    const load1: number[] = [];
    const startedAt = performance.now();
    const pids = { steward: running.pid, influxd: influxd.pid() };
    const sample = () =>
      samples.push(takeSample(pids, running.directories.queue, performance.now() - startedAt));
    sample();
    const sampler = setInterval(sample, Math.min(1000, windowMs / 6));
    const load = await runPacedLoad({
      ...target,
      rate,
      durationMs: durationS * 1000,
      windowMs,
      onWindowIssued(index) {
        load1[index] = loadAverage1();
        running.status().then(
          (status) => (backlog[index] = status.audit.events.waiting),
          () => (backlog[index] = -1),
        );
      },
    }).finally(() => clearInterval(sampler));

    const accepted = outcomes.count("accepted");
    const drainS = await secondsUntil(async () => {
      const { written } = (await running.status()).audit;
      return Object.values(written).every((count) => count >= accepted);
    }, DRAIN_TIMEOUT_S);
    const peakMb = peakRssMb(running.pid);
    running.proc.child.kill("SIGTERM");
    const { code: exitCode } = await running.proc.exited(60_000);
    const logLines = unexpectedLogLines(running.proc.output());

    const check = (name: string, ids: Iterable<string>, belongs: (seq: number) => boolean = () => true) =>
      checkDestination(name, ids, { outcomes, seqOf: events.seqOf, belongs });
    const destinations = [
      check("parquet (rows)", await parquetEventIds(running.directories.parquet)),
      check("tablefile (QVD rows)", qvdEventIds(running.directories.tablefile)),
      check("timeseriesdb (InfluxDB points)", await influxEventIds(influxd, SOAK_DATABASE)),
      check("json (objectData files)", jsonEventIds(running.directories.json), carriesObjectData),
    ];

    const windows = windowFigures(load.windows, samples, { backlog, load1 }, windowMs);
    const rss = growthOverSecondHalf(windows.map((w) => w.rssMb));
    const p99 = growthOverSecondHalf(windows.map((w) => w.p99Ms));
    const refused = outcomes.count("refused");
    const unanswered = outcomes.count("unanswered");
    console.log(
      `  soak: ${load.issued} requests in ${(load.elapsedMs / 1000).toFixed(1)} s (${(load.issued / durationS).toFixed(0)}/s), ${accepted} events acknowledged in all (capacity run included), peak RSS (VmHWM) ${peakMb.toFixed(1)} MB; load average ${loadAverage1()} at the end`,
    );
    console.log(windowTable(windows));
    console.log(
      `  drained ${drainS === undefined ? `not within ${DRAIN_TIMEOUT_S} s` : `${drainS.toFixed(1)} s after the load`}; Steward exited with ${exitCode}`,
    );
    for (const d of destinations)
      console.log(
        `  ${d.destination}: ${d.found} found, ${d.expected} expected; missing ${d.missing}, duplicates ${d.duplicates}, unexpected ${d.unexpected}`,
      );

    const growthJudged = durationS >= GROWTH_JUDGED_FROM_S;
    const growthVerdicts: Array<[boolean, string]> = [
      [
        rss.growth <= GROWTH_LIMIT,
        `RSS growth over the second half ${percent(rss.growth)} (median of its first 3 windows ${rss.first.toFixed(1)} MB, of its last 3 ${rss.last.toFixed(1)} MB; limit +10 %)`,
      ],
      [
        p99.growth <= GROWTH_LIMIT,
        `p99 growth over the second half ${percent(p99.growth)} (${p99.first.toFixed(2)} ms -> ${p99.last.toFixed(2)} ms; limit +10 %)`,
      ],
    ];
    if (!growthJudged)
      for (const [, text] of growthVerdicts)
        console.log(`INFO (not judged in a run under ${GROWTH_JUDGED_FROM_S} s) ${text}`);
    const verdicts: Array<[boolean, string]> = [
      ...(growthJudged ? growthVerdicts : []),
      [
        load.notIssued === 0 && refused === 0 && unanswered === 0,
        `every request answered 202: ${accepted} of ${outcomes.total} (other answers ${refused}, no answer ${unanswered}, not issued on schedule ${load.notIssued})`,
      ],
      [
        logLines.length === 0,
        `no ERROR, WARN or stray output in Steward's log${logLines.length === 0 ? "" : `: ${logLines.length} lines, e.g. ${logLines.slice(0, 5).join(" | ")}`}`,
      ],
      [
        drainS !== undefined && exitCode === 0,
        `destinations drained after the load (${drainS === undefined ? "no" : `${drainS.toFixed(1)} s`}) and Steward stopped cleanly (exit ${exitCode})`,
      ],
      [
        destinations.every(destinationCheckPasses),
        `counts: Parquet rows = QVD rows = InfluxDB points = ${accepted} acknowledged, JSON files = ${outcomes.count("accepted", carriesObjectData)} acknowledged with objectData, each once`,
      ],
    ];
    for (const [ok, text] of verdicts) console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
    const passed = verdicts.every(([ok]) => ok);
    if (!passed) process.exitCode = 1;
    return {
      durationS,
      windowS: windowMs / 1000,
      capacityRps: capacity.rps,
      capacityP99Ms: capacity.p99Ms,
      rate,
      issued: load.issued,
      accepted,
      windows,
      rss,
      p99,
      peakRssMb: Number(peakMb.toFixed(1)),
      settleS,
      drainS,
      exitCode,
      unexpectedLogLines: logLines,
      destinations,
      passed,
    };
  } finally {
    const child = steward?.proc.child;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await influxd.close();
    if (process.env.BENCH_SOAK_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
    else console.log(`  kept ${dir}`);
  }
}
