/**
 * UDP benchmark (`npm run bench -- udp`): log-event datagrams (the engine sample, ~400 bytes) sent
 * from another process at increasing paced rates to
 *   - a trivial node:dgram receiver that only splits on ";" and counts (the ceiling),
 *   - Steward's log-event pipeline with no destination (parse, categorise, count: the no-op writer),
 *   - Steward's log-event pipeline writing to InfluxDB 1.x (Debian's influxd; skipped without it),
 * each in its own bundled child process run by plain `node`, as `npm start` runs Steward (Steward's
 * with its node options, bin/node-flags.mjs), with the same 8 MiB receive buffer. Reported per rate: sent, received, processed, dropped; the highest
 * rate with nothing lost; CPU seconds per 100,000 events; p99 time in the queue; peak RSS (after
 * each rate and overall, with where the memory was at the highest RSS sampled: V8 heap by space,
 * external, rest); and end-to-end events/s into InfluxDB (sent ÷ time until the last point is
 * queryable).
 * Targets (2-core machine): ≥ 50,000 datagrams/s with no loss to the no-op writer, ≥ 10,000
 * events/s into InfluxDB 1.x, peak RSS ≤ 150 MB.
 * For investigations: BENCH_UDP_PARTS (`trivial,noop,influx`) picks receivers,
 * BENCH_UDP_NODE_FLAGS adds node flags to the receiver processes (e.g. `--trace-gc`),
 * BENCH_UDP_CHILD_LOG appends their output to a file, BENCH_UDP_MEMORY_LOG their memory samples,
 * BENCH_UDP_SMAPS copies the Steward receiver's /proc/<pid>/smaps to a file at its end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundle } from "../../bin/bundle.mjs";
import { NODE_FLAGS } from "../../bin/node-flags.mjs";
import { influxdAvailable, startInfluxd } from "../helpers/influxd.ts";
import { peakRssMb } from "./process-stats.ts";
import { describePeak, type MemorySample } from "./udp-memory.ts";

const STEP_SECONDS = Number(process.env.BENCH_UDP_STEP_S ?? 3);
/** Longer steps into InfluxDB, so the figure is its sustained rate rather than one batch's lag. */
const INFLUX_STEP_SECONDS = Number(process.env.BENCH_UDP_INFLUX_STEP_S ?? 8);
const RATES = (process.env.BENCH_UDP_RATES ?? "25000,50000,75000,100000").split(",").map(Number);
const INFLUX_RATES = (process.env.BENCH_UDP_INFLUX_RATES ?? "10000,20000").split(",").map(Number);
const RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;
/** Which receivers to measure (`trivial,noop,influx` by default), e.g. `influx` alone. */
const PARTS = new Set((process.env.BENCH_UDP_PARTS ?? "trivial,noop,influx").split(","));

/** An engine log event as its appender sends it, message lengthened (~400 bytes); `{n}` is the row. */
export function engineDatagram(): string {
  const base =
    "/qseow-engine/;{n};{t};2021-11-09 15:37:26,028;WARN;qs-node1;System.Engine.Engine;COMPANY\\qlikservice;";
  const tail =
    ";3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b;LAB;goran;2021-11-09T15:37:26.028+02:00;3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b;12.30.2;20211109T080000.000+0200;type1;3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b;3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b";
  const message = "Engine warning: the document took long to open; ".padEnd(
    400 - base.length - tail.length,
    "x",
  );
  return base + message + tail;
}

interface Child {
  process: ChildProcess;
  port: number;
}

const modules = {
  sender: fileURLToPath(bundle("test/bench/udp-sender.ts")),
  trivial: fileURLToPath(bundle("test/bench/udp-trivial-receiver.ts")),
  steward: fileURLToPath(bundle("test/bench/udp-server.ts")),
};

async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/** `nodeFlags`: Steward's node options for Steward's receiver, none for the trivial one. */
async function startChild(module: string, args: string[], nodeFlags: readonly string[] = []): Promise<Child> {
  const flags = (process.env.BENCH_UDP_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "");
  const child = spawn(process.execPath, [...nodeFlags, ...flags, module, ...args], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const output: string[] = [];
  const childLog = process.env.BENCH_UDP_CHILD_LOG;
  if (childLog !== undefined) child.stdout?.on("data", (chunk: Buffer) => appendFileSync(childLog, chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${module} did not start: ${output.join("")}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /READY (\d+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`${module} exited with ${code}: ${output.join("")}`)));
  });
  return { process: child, port };
}

function ask<T>(child: Child, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.process.once("message", (answer) => resolve(answer as T));
    child.process.send(message);
  });
}

async function send(port: number, rate: number, count: number): Promise<{ sent: number; ms: number }> {
  const child = spawn(
    process.execPath,
    [modules.sender, "127.0.0.1", String(port), String(rate), String(count), engineDatagram()],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise((resolve) => child.once("exit", resolve));
  const match = /SENT (\d+) ([\d.]+)/.exec(output);
  if (!match) throw new Error(`sender failed: ${output}`);
  return { sent: Number(match[1]), ms: Number(match[2]) };
}

async function stop(child: Child): Promise<void> {
  await new Promise<void>((resolve) => {
    child.process.once("exit", () => resolve());
    child.process.kill("SIGTERM");
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface StewardStats {
  counters: {
    received: number;
    processed: number;
    droppedSource: number;
    droppedSize: number;
    droppedRateLimit: number;
    droppedQueueFull: number;
  };
  timeInQueue: { p99Ms: number };
  cpuMs: number;
  memoryAtPeak: MemorySample;
}

const dropsOf = ({ counters }: StewardStats): number =>
  counters.droppedSource + counters.droppedSize + counters.droppedRateLimit + counters.droppedQueueFull;

/** Waits until `read` stops changing (processing caught up), at most `maxMs`. */
async function settled<T>(read: () => Promise<T>, same: (a: T, b: T) => boolean, maxMs = 5000): Promise<T> {
  let last = await read();
  for (let waited = 0; waited < maxMs; waited += 250) {
    await sleep(250);
    const next = await read();
    if (same(last, next)) return next;
    last = next;
  }
  return last;
}

export interface UdpStep {
  rate: number;
  sent: number;
  received: number;
  processed: number;
  dropped: number;
  lost: number;
  cpuSecondsPer100k?: number;
  queueP99Ms?: number;
  /** The receiver's peak RSS so far, read once the step is processed. */
  peakRssMb?: number;
}

async function trivialSteps(): Promise<{ steps: UdpStep[]; peakRssMb: number }> {
  const receiver = await startChild(modules.trivial, [String(RECEIVE_BUFFER_BYTES)]);
  const steps: UdpStep[] = [];
  let before = 0;
  for (const rate of RATES) {
    const { sent } = await send(receiver.port, rate, rate * STEP_SECONDS);
    const after = await settled(
      () => ask<{ received: number }>(receiver, "count").then((answer) => answer.received),
      (a, b) => a === b,
    );
    const received = after - before;
    before = after;
    steps.push({ rate, sent, received, processed: received, dropped: 0, lost: sent - received });
  }
  const rss = peakRssMb(receiver.process.pid as number);
  await stop(receiver);
  return { steps, peakRssMb: rss };
}

async function stewardSteps(
  args: string[],
  rates: number[],
  seconds: number,
  afterStep?: (processed: number, sendStartedAt: number) => Promise<void>,
) {
  const port = await freeUdpPort();
  const steward = await startChild(
    modules.steward,
    [args[0] ?? "noop", String(port), ...args.slice(1)],
    NODE_FLAGS,
  );
  const steps: UdpStep[] = [];
  let before = await ask<StewardStats>(steward, "stats");
  for (const rate of rates) {
    const sendStartedAt = Date.now();
    const { sent } = await send(steward.port, rate, rate * seconds);
    const after = await settled(
      () => ask<StewardStats>(steward, "stats"),
      (a, b) => a.counters.processed === b.counters.processed && a.counters.received === b.counters.received,
    );
    const received = after.counters.received - before.counters.received;
    const processed = after.counters.processed - before.counters.processed;
    steps.push({
      rate,
      sent,
      received,
      processed,
      dropped: dropsOf(after) - dropsOf(before),
      lost: sent - received,
      cpuSecondsPer100k: Number(
        (((after.cpuMs - before.cpuMs) / 1000 / Math.max(processed, 1)) * 100_000).toFixed(2),
      ),
      queueP99Ms: Number(after.timeInQueue.p99Ms.toFixed(3)),
    });
    await afterStep?.(processed, sendStartedAt);
    (steps.at(-1) as UdpStep).peakRssMb = Number(peakRssMb(steward.process.pid as number).toFixed(1));
    before = await ask<StewardStats>(steward, "stats");
  }
  const rss = peakRssMb(steward.process.pid as number);
  const { memoryAtPeak } = await ask<StewardStats>(steward, "stats");
  if (process.env.BENCH_UDP_SMAPS)
    writeFileSync(process.env.BENCH_UDP_SMAPS, readFileSync(`/proc/${steward.process.pid}/smaps`));
  await stop(steward);
  return { steps, peakRssMb: rss, memoryAtPeak };
}

function highestLossless(steps: readonly UdpStep[]): number {
  let best = 0;
  for (const step of steps)
    if (step.lost === 0 && step.dropped === 0 && step.processed === step.sent) best = step.rate;
  return best;
}

function print(
  title: string,
  result: { steps: UdpStep[]; peakRssMb: number; memoryAtPeak?: MemorySample },
): void {
  console.log(
    `  ${title}: highest rate with nothing lost ${highestLossless(result.steps)}/s, peak RSS ${result.peakRssMb.toFixed(1)} MB`,
  );
  if (result.memoryAtPeak !== undefined) console.log(`    ${describePeak(result.memoryAtPeak)}`);
  for (const step of result.steps) {
    const extra =
      step.cpuSecondsPer100k === undefined
        ? ""
        : `, ${step.cpuSecondsPer100k} CPU s per 100k, queue p99 ${step.queueP99Ms} ms, peak RSS so far ${step.peakRssMb} MB`;
    console.log(
      `    ${step.rate}/s: sent ${step.sent}, received ${step.received}, processed ${step.processed}, dropped ${step.dropped}, lost ${step.lost}${extra}`,
    );
  }
}

export async function run(): Promise<unknown> {
  console.log(
    `UDP benchmark (${engineDatagram().length}-byte engine log events, ${STEP_SECONDS} s per rate, receive buffer ${RECEIVE_BUFFER_BYTES / 1024 / 1024} MiB)`,
  );
  const figures: Record<string, unknown> = {};
  if (PARTS.has("trivial")) {
    const trivial = await trivialSteps();
    print("trivial node:dgram receiver (split and count)", trivial);
    figures.trivial = trivial;
  }
  if (PARTS.has("noop")) {
    const noop = await stewardSteps(["noop"], RATES, STEP_SECONDS);
    print("Steward log events, no destination", noop);
    figures.noop = noop;
  }
  if (!PARTS.has("influx")) return figures;
  if (!influxdAvailable) {
    console.log("  InfluxDB 1.x: influxd not installed, skipped (apt-get install -y influxdb)");
    return figures;
  }
  const influxd = await startInfluxd();
  try {
    const intoInflux: { rate: number; sent: number; eventsPerSecond: number; seconds: number }[] = [];
    let stored = 0;
    const count = async (): Promise<number> => {
      const result = await influxd.query('SELECT count("raw_event") FROM "log_event"', "steward_bench");
      return Number(result.results[0]?.series?.[0]?.values[0]?.[1] ?? 0);
    };
    const influx = await stewardSteps(
      ["influx", String(influxd.port), "steward_bench"],
      INFLUX_RATES,
      INFLUX_STEP_SECONDS,
      async (processed, sendStartedAt) => {
        const target = stored + processed;
        for (let i = 0; i < 300 && (await count()) < target; i++) await sleep(100);
        const seconds = (Date.now() - sendStartedAt) / 1000;
        const step = INFLUX_RATES[intoInflux.length] ?? 0;
        const before = stored;
        stored = await count();
        const landed = stored - before;
        intoInflux.push({ rate: step, sent: landed, seconds, eventsPerSecond: Math.round(landed / seconds) });
      },
    );
    print("Steward log events into InfluxDB 1.x", influx);
    for (const step of intoInflux) {
      console.log(
        `    into InfluxDB at ${step.rate}/s: ${step.sent} events queryable ${step.seconds.toFixed(1)} s after the first was sent = ${step.eventsPerSecond} events/s end to end`,
      );
    }
    figures.influx = { ...influx, intoInflux };
  } finally {
    await influxd.close();
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
