/**
 * `npm run bench -- qlik-cloud`: signed webhook deliveries of one simulated Qlik Cloud tenant to
 * the real `steward start` (bundled, as `npm start` runs it): BENCH_CLOUD_DELIVERIES (1,000)
 * finished reloads, each its own run, delivered at an even pace over BENCH_CLOUD_SECONDS (10),
 * each request timed from send to answer. Before them, BENCH_CLOUD_WARMUP (50) deliveries at the
 * same pace warm the receiver up: the first answers of a fresh process pay for compiling the code
 * they run (on Node 24 the first five took 50–80 ms on 2026-12-06), which is start-up, not the
 * steady pace the target is about; their slowest answer is reported apart, and their runs must be
 * handed on like the others. Verdicts: every delivery acknowledged (2xx), p99 of the measured
 * answers ≤ 50 ms, every run handed on exactly once (counted `processed`, one log line each),
 * none lost, no duplicate. Beside it, in the same run, a trivial `node:http` receiver that checks
 * the signature and appends each body to a file with its own fdatasync before answering: the
 * least a receiver that answers only once an event is durable must do. Steward's peak RSS is
 * reported from /proc.
 *
 * The simulated tenant runs in a process of its own (qlik-cloud-tenant.ts), which makes the runs
 * and answers Steward's calls, so that nothing but sending and timing runs in this process: how
 * late this process's event loop ran while it sent is reported beside each p99 (a late loop
 * delays the clock of the answers, not the answers), with the slowest answers by their place in
 * the run and how many calls the tenant got meanwhile. BENCH_CLOUD_NODE_ARGS adds node options
 * to the Steward process (a CPU profile, a GC trace); BENCH_CLOUD_PROBE=1 records Steward's own
 * event loop and collections (steward-loop-probe.ts) and adds them to the slowest answers;
 * BENCH_CLOUD_OUTPUT=FILE keeps Steward's output (its log lines, a trace) in FILE.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { bundle } from "../../bin/bundle.mjs";
import { sendSignedEvent } from "../../local/simulated-cloud/signed-event-sender.ts";
import { sampleValue } from "../helpers/prometheus-text.ts";
import {
  type CloudTenant,
  freeCloudStewardPorts,
  scrape,
  webhookUrl,
  writeCloudConfig,
} from "../helpers/qlik-cloud-steward.ts";
import { spawnSteward } from "../helpers/steward-process.ts";
import { ask, type Child, message, spawnChild, stopChild } from "./bench-children.ts";
import { type CpuWaitSampler, startCpuWaitSampler } from "./cpu-wait-sampler.ts";
import { percentile } from "./order-statistics.ts";
import { cpuSeconds, loadAverage1, memoryMb } from "./process-stats.ts";

const DELIVERIES = Number(process.env.BENCH_CLOUD_DELIVERIES ?? 1000);
const SECONDS = Number(process.env.BENCH_CLOUD_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_CLOUD_WARMUP ?? 50);
/** Milliseconds between two deliveries, warm-up included. */
const PACE_MS = (SECONDS * 1000) / DELIVERIES;
const P99_TARGET_MS = 50;
/** BENCH_CLOUD_PROBE=1: Steward's own event loop and collections are recorded (steward-loop-probe.ts). */
const PROBE = process.env.BENCH_CLOUD_PROBE === "1";
/** BENCH_CLOUD_OUTPUT=FILE: Steward's whole output is written there (its log, a `--trace-opt`). */
const OUTPUT_FILE = process.env.BENCH_CLOUD_OUTPUT;
/** BENCH_CLOUD_NODE_ARGS: node options for the Steward process only (`--cpu-prof --cpu-prof-dir=DIR`, `--trace-gc`). */
const NODE_ARGS = (process.env.BENCH_CLOUD_NODE_ARGS ?? "").split(/\s+/).filter((arg) => arg !== "");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  readonly statuses: number[];
  readonly latencies: number[];
  /** When each was sent (`performance.now()`). */
  readonly sentAt: number[];
  readonly ms: number;
  /** How late this process's event loop ran while it sent and timed (p99 and max, ms). */
  readonly loopDelay: { readonly p99: number; readonly max: number };
}

/** The simulated tenant, in its own process (qlik-cloud-tenant.ts). */
interface BenchTenant extends CloudTenant {
  readonly child: Child;
}

/** Sends every body to `url` at an even pace, without waiting for one answer before the next send. */
async function deliver(url: string, bodies: readonly string[], secret: string): Promise<Sent> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const pending: Promise<{ status: number; ms: number }>[] = [];
  const sentAt: number[] = [];
  for (const [i, body] of bodies.entries()) {
    const due = started + i * PACE_MS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sentAt.push(performance.now());
    pending.push(
      sendSignedEvent({ url, body, secret }).then((outcome) => ({
        status: outcome.status ?? 0,
        ms: outcome.ms,
      })),
    );
  }
  const answers = await Promise.all(pending);
  delay.disable();
  return {
    statuses: answers.map((a) => a.status),
    latencies: answers.map((a) => a.ms),
    sentAt,
    ms: performance.now() - started,
    loopDelay: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
  };
}

/** Fresh runs of the tenant (failed and succeeded in turn), as the exact bodies Qlik would send. */
async function bodies(tenant: BenchTenant, count: number): Promise<string[]> {
  return (await ask<{ bodies: string[] }>(tenant.child, { finish: count }, "bodies")).bodies;
}

/** The API and token calls the tenant got so far. */
async function tenantCalls(tenant: BenchTenant): Promise<number> {
  const { calls, tokenCalls } = await ask<{ calls: number; tokenCalls: number }>(
    tenant.child,
    "calls",
    "calls",
  );
  return calls + tokenCalls;
}

async function startTenant(): Promise<BenchTenant> {
  const child = spawnChild([fileURLToPath(bundle("test/bench/qlik-cloud-tenant.ts"))], { ipc: true });
  const ready = await message(
    child,
    (received) => (received as { ready?: CloudTenant }).ready,
    "simulated tenant start",
  );
  return { ...ready, child };
}

async function stewardRun(tenant: BenchTenant) {
  const dir = mkdtempSync(join(tmpdir(), "steward-bench-cloud-"));
  const ports = await freeCloudStewardPorts();
  // Polling off: the deliveries alone are measured (the tenant's reloads API would find them too).
  writeCloudConfig(dir, { tenants: [tenant], ports, poll: false, logLevel: "verbose" });
  const probeFile = PROBE ? join(dir, "loop-probe.json") : undefined;
  const steward = spawnSteward(["start", "--config", "steward.yaml"], {
    cwd: dir,
    nodeArgs: [...(PROBE ? ["--import", bundle("test/bench/steward-loop-probe.ts")] : []), ...NODE_ARGS],
    ...(probeFile === undefined ? {} : { env: { STEWARD_LOOP_PROBE_FILE: probeFile } }),
  });
  await steward.waitFor(/steward ready/, 30_000);
  const pid = steward.child.pid as number;
  let probe: ProbeEvent[] = [];
  try {
    const idleRssMb = memoryMb(pid).rss;
    const cpuBefore = cpuSeconds(pid);
    const url = webhookUrl(ports.ingest, tenant.fixture.name);
    const warmup = await deliver(url, await bodies(tenant, WARMUP), tenant.fixture.webhookSecret);
    const measured = await bodies(tenant, DELIVERIES);
    const callsBefore = await tenantCalls(tenant);
    const waits = startCpuWaitSampler(pid);
    const sent = await deliver(url, measured, tenant.fixture.webhookSecret);
    waits.stop();
    const callsDuring = (await tenantCalls(tenant)) - callsBefore;
    const count = async (outcome: string) =>
      sampleValue(await scrape(ports.scrape), "steward_cloud_events_total", {
        tenant: tenant.fixture.name,
        source: "webhook",
        outcome,
      }) ?? 0;
    const deadline = Date.now() + 30_000;
    while ((await count("processed")) < WARMUP + DELIVERIES && Date.now() < deadline) await sleep(50);
    await sleep(1000); // anything handed on twice would be counted by now
    const lines = steward
      .output()
      .split("\n")
      .filter((line) => line.includes("Qlik Cloud reload")).length;
    return {
      warmup,
      sent,
      sampler: waits,
      probe: () => probe,
      processed: await count("processed"),
      duplicate: await count("duplicate"),
      failed: await count("failed"),
      lines,
      tenantCalls: callsDuring,
      cpuSeconds: Number((cpuSeconds(pid) - cpuBefore).toFixed(2)),
      idleRssMb: Number(idleRssMb.toFixed(1)),
      peakRssMb: Number(memoryMb(pid).peak.toFixed(1)),
    };
  } finally {
    steward.child.kill("SIGTERM");
    await steward.exited(15_000).catch(() => steward.child.kill("SIGKILL"));
    if (OUTPUT_FILE !== undefined) writeFileSync(OUTPUT_FILE, steward.output());
    if (probeFile !== undefined && existsSync(probeFile))
      probe = JSON.parse(readFileSync(probeFile, "utf8")) as ProbeEvent[];
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The trivial receiver: signature, an appended line and its fdatasync, then 202. */
async function trivialRun(tenant: BenchTenant): Promise<Sent> {
  const dir = mkdtempSync(join(tmpdir(), "steward-bench-cloud-trivial-"));
  const fd = openSync(join(dir, "events.log"), "a");
  const secret = tenant.fixture.webhookSecret;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const mac = createHmac("sha256", secret).update(body).digest();
      const given = Buffer.from(String(request.headers["qlik-signature"] ?? ""), "hex");
      if (given.length !== mac.length || !timingSafeEqual(given, mac))
        return void response.writeHead(401).end();
      writeSync(fd, body);
      writeSync(fd, "\n");
      fdatasyncSync(fd);
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await deliver(url, await bodies(tenant, WARMUP), secret);
    return await deliver(url, await bodies(tenant, DELIVERIES), secret);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

const summary = (sent: Sent) =>
  `p50 ${percentile(sent.latencies, 50).toFixed(1)} ms, p99 ${percentile(sent.latencies, 99).toFixed(1)} ms, ` +
  `max ${Math.max(...sent.latencies).toFixed(1)} ms; ${sent.statuses.filter((s) => s >= 200 && s < 300).length} acknowledged in ${(sent.ms / 1000).toFixed(1)} s; ` +
  `the sender's event loop late by p99 ${sent.loopDelay.p99.toFixed(1)}, max ${sent.loopDelay.max.toFixed(1)} ms`;

/** The `count` slowest answers, by their place in the run: where a burst was. */
const slowest = (sent: Sent, count: number) =>
  sent.latencies
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .sort((a, b) => a.i - b.i);

/** A garbage collection or a late timer in Steward's process (steward-loop-probe.ts). */
type ProbeEvent = [kind: "gc" | "late", startEpochMs: number, ms: number];

/** What Steward's probe saw between two of this process's `performance.now()` times. */
function probed(probe: readonly ProbeEvent[], startMs: number, endMs: number): string {
  const [from, to] = [performance.timeOrigin + startMs, performance.timeOrigin + endMs];
  const inside = probe.filter(([, at, ms]) => at < to && at + ms > from);
  const total = (kind: string) =>
    inside.filter(([each]) => each === kind).reduce((sum, [, , ms]) => sum + ms, 0);
  const late = Math.max(0, ...inside.filter(([kind]) => kind === "late").map(([, , ms]) => ms));
  return `Steward's loop late ${late.toFixed(0)}, collecting ${total("gc").toFixed(0)}`;
}

/**
 * How long Steward's main thread ran and waited for a CPU, and this process's waited, over the
 * whole run and while each of the ten slowest answers was awaited, and how late this process's
 * loop ran then.
 */
function cpuWaits(sent: Sent, sampler: CpuWaitSampler, probe: readonly ProbeEvent[]) {
  const end = Math.max(...sent.sentAt.map((at, i) => at + (sent.latencies[i] ?? 0)));
  const span = (startMs: number, endMs: number) => {
    const { watchedRanMs, watchedThreadsRanMs, watchedMs, selfMs, lateMs } = sampler.within(startMs, endMs);
    return (
      `Steward ran ${watchedRanMs.toFixed(0)} (all threads ${watchedThreadsRanMs.toFixed(0)}), waited ${watchedMs.toFixed(0)}; sender waited ${selfMs.toFixed(0)}, sender's loop late ${lateMs.toFixed(0)}` +
      (PROBE ? `; ${probed(probe, startMs, endMs)}` : "")
    );
  };
  return {
    run: `from ${new Date(performance.timeOrigin + (sent.sentAt[0] ?? 0)).toISOString()}: ${span(sent.sentAt[0] ?? 0, end)}`,
    slowest: slowest(sent, 10).map(({ ms, i }) => {
      const at = sent.sentAt[i] ?? 0;
      return `#${i} ${ms.toFixed(0)} ms: ${span(at, at + ms)}`;
    }),
  };
}

export async function run(): Promise<unknown> {
  console.log(
    `Qlik Cloud webhook benchmark: ${DELIVERIES} signed deliveries of one tenant over ${SECONDS} s after ${WARMUP} to warm up, load ${loadAverage1()}`,
  );
  const tenant = await startTenant();
  try {
    const steward = await stewardRun(tenant);
    const trivial = await trivialRun(tenant);
    const waits = cpuWaits(steward.sent, steward.sampler, steward.probe());
    console.log(`  steward: ${summary(steward.sent)}`);
    console.log(`    main threads on and waiting for a CPU over the run (ms): ${waits.run}`);
    console.log("    the slowest answers, by their place in the run, and the main threads meanwhile (ms):");
    for (const line of waits.slowest) console.log(`      ${line}`);
    console.log(`    warm-up: ${summary(steward.warmup)}`);
    console.log(
      `    calls the tenant (its own process) got while the measured ones were sent: ${steward.tenantCalls}`,
    );
    console.log(
      `    handed on ${steward.processed} (log lines ${steward.lines}), duplicate ${steward.duplicate}, failed ${steward.failed}`,
    );
    console.log(
      `    Steward CPU ${steward.cpuSeconds} s, RSS idle ${steward.idleRssMb} MB, peak ${steward.peakRssMb} MB`,
    );
    console.log(`  trivial receiver (signature, append, fdatasync): ${summary(trivial)}`);
    const verdicts = {
      "every delivery acknowledged": [...steward.warmup.statuses, ...steward.sent.statuses].every(
        (status) => status === 202,
      ),
      [`p99 ≤ ${P99_TARGET_MS} ms`]: percentile(steward.sent.latencies, 99) <= P99_TARGET_MS,
      "every run handed on once, none lost":
        steward.processed === WARMUP + DELIVERIES && steward.lines === WARMUP + DELIVERIES,
      "no duplicate, no failure": steward.duplicate === 0 && steward.failed === 0,
    };
    for (const [verdict, ok] of Object.entries(verdicts))
      console.log(`    ${ok ? "PASS" : "FAIL"} ${verdict}`);
    if (Object.values(verdicts).includes(false)) process.exitCode = 1;
    return { steward, trivial: { p99: percentile(trivial.latencies, 99) } };
  } finally {
    await stopChild(tenant.child);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
