/**
 * Platform polling benchmark (`npm run bench -- polling`): Steward, run as `npm start` runs it
 * (`node <bin/node-flags.mjs> bin/steward.js start --config FILE`), polls 200 simulated platform servers (product
 * code, over mutual TLS, in a child process of their own) every 5 s — engine health and the root
 * proxy's sessions — with all four exporters on: InfluxDB 1.x (Debian's influxd; skipped, loudly,
 * without it), a mosquitto broker, the observability platform's metric API (a capture server in
 * this process) and the scrape endpoint; the app-name poller is on too.
 *
 * Measured, after start-up and the first round (TLS handshakes to every server, reported apart):
 *   - over BENCH_POLLING_S (60 s): every health and session round's duration (p50/p99, skipped
 *     beats), read from `/metrics` once a second; CPU % of one core (utime+stime from
 *     /proc/<pid>/stat); points written per second (counted in InfluxDB by timestamp within the
 *     window), MQTT messages received, metric POSTs captured; the calls the platform saw (peak
 *     in flight at once, TLS connections opened, calls per server: no request storm);
 *   - then over BENCH_POLLING_SCRAPE_S (20 s), polling going on: `GET /metrics` every 250 ms,
 *     each timed (p50/p99) by a scraper process of its own (polling-scraper.ts), and the CPU one
 *     scrape costs (beyond the polling window's rate).
 *     The scrapes are kept apart so that four a second do not weigh on the CPU figure above; the
 *     two windows' CPU rates give the CPU of one scrape, and the polling CPU without scrapes;
 *   - then over BENCH_POLLING_GZIP_S (10 s), the same with `Accept-Encoding: gzip`, as Prometheus
 *     scrapes (timed to the last compressed byte);
 *   - peak RSS (VmHWM) of the Steward process over its whole life, and RSS at each stage; and,
 *     for the floor, Steward's RSS with the same configuration but no server to poll.
 * The trivial poller (polling-trivial-poller.ts: the same calls, one keep-alive agent, 10 at a
 * time per list, JSON.parse only) runs first, alone, over the same window; Steward's figures are
 * also given as ratios to it.
 * BENCH_POLLING_ENTRY=bundle runs dist/main.mjs instead of bin/steward.js (no esbuild in the
 * process); BENCH_POLLING_SERVERS changes the number of servers; BENCH_POLLING_NODE_ARGS adds
 * node options to the Steward process (`--cpu-prof --cpu-prof-dir=DIR`, `--import FILE`, ...).
 * Targets: a health round of 200 servers ≤ 2 s with bounded concurrency, ≤ 25 % of one core,
 * peak RSS ≤ 150 MB; `GET /metrics` with 200 servers' series ≤ 20 ms p99.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import mqtt from "mqtt";
import { stringify } from "yaml";
import { bundle } from "../../bin/bundle.mjs";
import { NODE_FLAGS } from "../../bin/node-flags.mjs";
import { generateThrowawayPki, writeThrowawayPki } from "../../local/simulated-platform/throwaway-pki.ts";
import { startCaptureServer } from "../helpers/capture-server.ts";
import { freePort } from "../helpers/free-port.ts";
import { type Influxd, influxdAvailable, startInfluxd } from "../helpers/influxd.ts";
import { type Mosquitto, mosquittoAvailable, startMosquitto } from "../helpers/mosquitto.ts";
import { parsePrometheusText, type ScrapedMetric, sampleValue } from "../helpers/prometheus-text.ts";
import { ask, type Child, children, message, spawnChild, stopChild } from "./bench-children.ts";
import { percentile } from "./order-statistics.ts";
import { cpuSeconds, loadAverages, memoryMb as processMemoryMb } from "./process-stats.ts";

const SERVERS = Number(process.env.BENCH_POLLING_SERVERS ?? 200);
const WINDOW_S = Number(process.env.BENCH_POLLING_S ?? 60);
const SCRAPE_WINDOW_S = Number(process.env.BENCH_POLLING_SCRAPE_S ?? 20);
const GZIP_WINDOW_S = Number(process.env.BENCH_POLLING_GZIP_S ?? 10);
const INTERVAL_MS = 5000;
const SCRAPE_EVERY_MS = 250;
const IDLE_S = 10;
const DATABASE = "steward_polling_bench";
const BASE_TOPIC = "steward-bench/";
/** The whole benchmark gives up (and cleans up) after this long. */
const DEADLINE_MS = (WINDOW_S * 2 + SCRAPE_WINDOW_S + GZIP_WINDOW_S + 240) * 1000;

const TARGETS = { roundP99Ms: 2000, cpuPercent: 25, peakRssMb: 150, scrapeP99Ms: 20 };

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/**
 * As `npm start` runs Steward (bin/steward.js bundles, then imports the bundle in its own process);
 * BENCH_POLLING_ENTRY=bundle runs the bundle itself (dist/main.mjs), without esbuild's module.
 */
const STEWARD_ENTRY =
  process.env.BENCH_POLLING_ENTRY === "bundle"
    ? fileURLToPath(bundle("local/cli/main.ts"))
    : join(ROOT, "bin", "steward.js");
/** BENCH_POLLING_NODE_ARGS: node options for the Steward process only (e.g. `--cpu-prof`). */
const STEWARD_NODE_ARGS = (process.env.BENCH_POLLING_NODE_ARGS ?? "")
  .split(/\s+/)
  .filter((arg) => arg !== "");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Figures

const round1 = (value: number) => Math.round(value * 10) / 10;

interface Distribution {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function distribution(values: readonly number[]): Distribution {
  return {
    count: values.length,
    p50Ms: round1(percentile(values, 50)),
    p99Ms: round1(percentile(values, 99)),
    maxMs: round1(Math.max(...values)),
  };
}

/** Resident memory now and at its peak, MB, to one decimal. */
function memoryMb(pid: number): { rss: number; peak: number } {
  const { rss, peak } = processMemoryMb(pid);
  return { rss: round1(rss), peak: round1(peak) };
}

const peakRssMb = (pid: number): number => memoryMb(pid).peak;

const loadAverage = (): string => loadAverages().join(" ");

// ---------------------------------------------------------------------------------------------
// Steward's configuration

interface Destinations {
  influxd: Influxd | undefined;
  mosquitto: Mosquitto;
  captureUrl: string;
  scrapePort: number;
}

/** `poll: false`: the same configuration without servers to poll (the app-name poller stays). */
function stewardConfig(pkiDir: string, ports: readonly number[], to: Destinations, poll = true): string {
  const address = (port: number) => `127.0.0.1:${port}`;
  const config = {
    Service: {
      logLevel: "info",
      fileLogging: false,
      // The agent alone: the ingest and REST APIs (own benchmarks) would also take fixed ports.
      auditEvents: { enable: false },
      restServer: { enable: false },
      scheduler: { enable: false },
      cert: {
        clientCert: join(pkiDir, "client.pem"),
        clientCertKey: join(pkiDir, "client_key.pem"),
        clientCertCA: join(pkiDir, "root.pem"),
      },
      platform: { repositoryPort: ports[0], rejectUnauthorized: true },
      appNames: { enableAppNameExtract: true, extractInterval: 60_000, hostIP: "127.0.0.1" },
      timeseriesdbConfig: {
        enable: to.influxd !== undefined,
        host: "127.0.0.1",
        port: to.influxd?.port ?? 8086,
        version: 1,
        v1Config: { dbName: DATABASE },
      },
      mqttConfig: {
        enable: true,
        brokerHost: "127.0.0.1",
        brokerPort: to.mosquitto.port,
        baseTopic: BASE_TOPIC,
      },
      thirdPartyToolsCredentials: {
        obsPlatform: [{ accountName: "bench", insertApiKey: "bench-insert-key", accountId: 1234567 }],
      },
      obsPlatform: {
        enable: true,
        metric: { destinationAccount: ["bench"], url: `${to.captureUrl}/metric/v1` },
      },
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: to.scrapePort },
      userSessions: { enableSessionExtract: true, pollingInterval: INTERVAL_MS },
      serversToMonitor: {
        pollingInterval: INTERVAL_MS,
        rejectUnauthorized: true,
        servers: (poll ? ports : []).map((port, index) => ({
          host: address(port),
          serverName: `sim-${String(index).padStart(3, "0")}`,
          serverDescription: `Simulated server ${index}`,
          userSessions: { enable: true, host: address(port), virtualProxies: [{ virtualProxy: "/" }] },
        })),
      },
    },
  };
  return stringify(config);
}

// ---------------------------------------------------------------------------------------------
// Scraping

const scrapeAgent = new Agent({ keepAlive: true, maxSockets: 1 });

interface TimedScrapes {
  /** ms from each request to the last byte of its answer. */
  latencies: number[];
  /** Size of the last answer as sent (gzipped or not). */
  bytes: number;
  /** The last answer's text. */
  text: string;
}

/**
 * `GET /metrics` every SCRAPE_EVERY_MS for `seconds`, timed by polling-scraper.ts in a process of
 * its own, as a scraper would: this process's own work (the MQTT subscriber counting 900 messages
 * a second, the capture server) held its event loop for up to 90 ms at times, and the timings
 * taken here included that.
 */
async function timedScrapes(port: number, seconds: number, gzip: boolean): Promise<TimedScrapes> {
  const scraper = spawnChild(
    [
      fileURLToPath(bundle("test/bench/polling-scraper.ts")),
      String(port),
      String(seconds),
      String(SCRAPE_EVERY_MS),
      ...(gzip ? ["gzip"] : []),
    ],
    { ipc: true },
  );
  try {
    return await message<TimedScrapes>(
      scraper,
      (m) => ((m as Partial<TimedScrapes>).latencies ? (m as TimedScrapes) : undefined),
      "timed scrapes",
      (seconds + 30) * 1000,
    );
  } finally {
    await stopChild(scraper);
  }
}

/** One `GET /metrics` (following the rounds): its text. */
function scrape(port: number): Promise<{ text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/metrics", agent: scrapeAgent, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`GET /metrics answered ${res.statusCode}`));
          else resolve({ text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("GET /metrics took longer than 10 s")));
    req.on("error", reject);
    req.end();
  });
}

interface PollerView {
  completed: number;
  skipped: number;
  lastRoundMs: number | undefined;
  succeeded: number;
  failed: number;
}

function pollerView(metrics: readonly ScrapedMetric[], poll: "health" | "sessions"): PollerView {
  const value = (name: string, labels?: Record<string, string>) =>
    sampleValue(metrics, `steward_${poll}_${name}`, labels);
  const seconds = value("round_duration_seconds");
  return {
    completed: value("rounds_total", { outcome: "completed" }) ?? 0,
    skipped: value("rounds_total", { outcome: "skipped" }) ?? 0,
    lastRoundMs: seconds === undefined ? undefined : seconds * 1000,
    succeeded: value("polls_total", { outcome: "succeeded" }) ?? 0,
    failed: value("polls_total", { outcome: "failed" }) ?? 0,
  };
}

/** Follows one poller's rounds from successive scrapes: each completed round's duration. */
function roundFollower(poll: "health" | "sessions") {
  const durations: number[] = [];
  let first: PollerView | undefined;
  let last: PollerView | undefined;
  let missed = 0;
  return {
    see(metrics: readonly ScrapedMetric[]): PollerView {
      const view = pollerView(metrics, poll);
      if (first === undefined) first = view;
      else if (last !== undefined && view.completed > last.completed) {
        // The gauge holds the last completed round only: two rounds between scrapes lose one.
        missed += view.completed - last.completed - 1;
        if (view.lastRoundMs !== undefined) durations.push(view.lastRoundMs);
      }
      last = view;
      return view;
    },
    figures() {
      const delta = (key: keyof PollerView) =>
        ((last?.[key] ?? 0) as number) - ((first?.[key] ?? 0) as number);
      return {
        rounds: distribution(durations),
        durationsMs: durations.map(round1),
        completed: delta("completed"),
        skipped: delta("skipped"),
        missedByScrapes: missed,
        callsSucceeded: delta("succeeded"),
        callsFailed: delta("failed"),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The trivial poller

interface TrivialRound {
  startedMs: number;
  durationMs: number;
  failed: number;
}

async function measureTrivial(pkiDir: string, ports: readonly number[], platform: Child) {
  const poller = spawnChild(
    [
      fileURLToPath(bundle("test/bench/polling-trivial-poller.ts")),
      pkiDir,
      String(INTERVAL_MS),
      ports.join(","),
    ],
    { ipc: true },
  );
  try {
    const pid = poller.process.pid as number;
    await message(
      poller,
      (m) => ((m as { ready?: boolean }).ready ? true : undefined),
      "trivial poller start",
    );
    type Stats = {
      rounds: { health: TrivialRound[]; sessions: TrivialRound[] };
      skipped: Record<string, number>;
    };
    // The first round opens every connection: reported apart, as Steward's.
    const deadline = Date.now() + 60_000;
    let stats = await ask<Stats>(poller, "stats", "rounds");
    while (stats.rounds.health.length === 0 || stats.rounds.sessions.length === 0) {
      if (Date.now() > deadline)
        throw new Error(`the trivial poller's first round did not end:\n${poller.output()}`);
      await sleep(100);
      stats = await ask<Stats>(poller, "stats", "rounds");
    }
    await ask(platform, "reset", "reset");
    const firstRound = stats.rounds.health[0] as TrivialRound;
    const windowStart = Date.now();
    const cpuBefore = cpuSeconds(pid);
    await sleep(WINDOW_S * 1000);
    const cpuAfter = cpuSeconds(pid);
    const windowEnd = Date.now();
    stats = await ask<Stats>(poller, "stats", "rounds");
    const traffic = await ask<PlatformTraffic>(platform, "stats", "requests");
    const inWindow = (rounds: TrivialRound[]) =>
      rounds.filter((r) => r.startedMs >= windowStart && r.startedMs + r.durationMs <= windowEnd);
    const seconds = (windowEnd - windowStart) / 1000;
    return {
      firstRoundMs: round1(firstRound.durationMs),
      health: distribution(inWindow(stats.rounds.health).map((r) => r.durationMs)),
      sessions: distribution(inWindow(stats.rounds.sessions).map((r) => r.durationMs)),
      failedCalls: [...inWindow(stats.rounds.health), ...inWindow(stats.rounds.sessions)].reduce(
        (sum, r) => sum + r.failed,
        0,
      ),
      skipped: stats.skipped,
      cpuPercent: round1(((cpuAfter - cpuBefore) / seconds) * 100),
      peakRssMb: peakRssMb(pid),
      traffic,
    };
  } finally {
    await stopChild(poller);
  }
}

interface PlatformTraffic {
  requests: number;
  inFlight: number;
  peakInFlight: number;
  connectionsOpened: number;
  open: number;
  peakOpen: number;
  callsPerServer: { min: number; max: number };
  callsByPath: Record<string, number>;
  repositoryCalls: number;
  cpuMs: number;
}

// ---------------------------------------------------------------------------------------------
// Steward

async function startSteward(configFile: string, cwd: string, scrapePort: number): Promise<Child> {
  const steward = spawnChild(
    [...NODE_FLAGS, ...STEWARD_NODE_ARGS, STEWARD_ENTRY, "start", "--config", configFile],
    {
      cwd,
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (steward.process.exitCode !== null || steward.process.signalCode !== null) {
      throw new Error(
        `Steward exited (${steward.process.exitCode ?? steward.process.signalCode}) at start:\n${steward.output()}`,
      );
    }
    if (/steward ready/i.test(steward.output())) {
      const answered = await scrape(scrapePort).then(
        () => true,
        () => false,
      );
      if (answered) return steward;
    }
    if (Date.now() > deadline) {
      await stopChild(steward);
      throw new Error(`Steward did not start within 60 s:\n${steward.output()}`);
    }
    await sleep(100);
  }
}

/** Steward with the same configuration but no server to poll: the memory floor of the process. */
async function measureIdle(configFile: string, cwd: string, scrapePort: number) {
  const steward = await startSteward(configFile, cwd, scrapePort);
  try {
    await sleep(IDLE_S * 1000);
    return memoryMb(steward.process.pid as number);
  } finally {
    await stopChild(steward);
  }
}

interface Counting {
  mqttMessages: () => number;
  obsPosts: () => number;
}

async function measureSteward(
  configFile: string,
  cwd: string,
  destinations: Destinations,
  platform: Child,
  counting: Counting,
) {
  const port = destinations.scrapePort;
  const launchedAt = Date.now();
  const steward = await startSteward(configFile, cwd, port);
  const pid = steward.process.pid as number;
  const memory: Record<string, { rss: number; peak: number }> = { ready: memoryMb(pid) };
  try {
    const startedMs = Date.now() - launchedAt;
    // Wait for the first health and session rounds (every TLS handshake happens there).
    const deadline = Date.now() + 60_000;
    let metrics = parsePrometheusText((await scrape(port)).text);
    while (pollerView(metrics, "health").completed < 1 || pollerView(metrics, "sessions").completed < 1) {
      if (Date.now() > deadline)
        throw new Error(`Steward's first rounds did not end in 60 s:\n${steward.output()}`);
      await sleep(100);
      metrics = parsePrometheusText((await scrape(port)).text);
    }
    memory.afterFirstRounds = memoryMb(pid);
    const firstRoundMs = round1(pollerView(metrics, "health").lastRoundMs ?? Number.NaN);
    const firstSessionRoundMs = round1(pollerView(metrics, "sessions").lastRoundMs ?? Number.NaN);
    const appNamesFetches = sampleValue(metrics, "steward_app_names_fetches_total", { outcome: "succeeded" });

    // The polling window: one scrape a second, to follow the rounds.
    await ask(platform, "reset", "reset");
    const health = roundFollower("health");
    const sessions = roundFollower("sessions");
    health.see(metrics);
    sessions.see(metrics);
    const mqttBefore = counting.mqttMessages();
    const obsBefore = counting.obsPosts();
    const windowStart = Date.now();
    const cpuBefore = cpuSeconds(pid);
    let windowScrapes = 0;
    while (Date.now() - windowStart < WINDOW_S * 1000) {
      await sleep(1000);
      metrics = parsePrometheusText((await scrape(port)).text);
      windowScrapes += 1;
      health.see(metrics);
      sessions.see(metrics);
    }
    const cpuAfter = cpuSeconds(pid);
    const windowEnd = Date.now();
    memory.afterPollingWindow = memoryMb(pid);
    const seconds = (windowEnd - windowStart) / 1000;
    const mqttMessages = counting.mqttMessages() - mqttBefore;
    const obsPosts = counting.obsPosts() - obsBefore;
    const traffic = await ask<PlatformTraffic>(platform, "stats", "requests");
    const cpuPercent = ((cpuAfter - cpuBefore) / seconds) * 100;

    // The scrape window: GET /metrics every 250 ms, each timed by a scraper process of its own.
    const scrapeStart = Date.now();
    const scrapeCpuBefore = cpuSeconds(pid);
    const scraped = await timedScrapes(port, SCRAPE_WINDOW_S, false);
    const latencies = scraped.latencies;
    const bodyBytes = scraped.bytes;
    const scrapeSeconds = (Date.now() - scrapeStart) / 1000;
    const scrapeCpu = cpuSeconds(pid) - scrapeCpuBefore;
    const lastScrape = parsePrometheusText(scraped.text);
    const series = lastScrape.reduce((sum, family) => sum + family.samples.length, 0);
    // CPU rate = polling + scrapes per second × CPU per scrape, in both windows: two equations.
    const scrapeRates = { polling: windowScrapes / seconds, scraping: latencies.length / scrapeSeconds };
    const cpuSecondsPerScrape =
      (scrapeCpu / scrapeSeconds - (cpuAfter - cpuBefore) / seconds) /
      (scrapeRates.scraping - scrapeRates.polling);
    const cpuMsPerScrape = cpuSecondsPerScrape * 1000;
    const cpuPercentWithoutScrapes = cpuPercent - scrapeRates.polling * cpuSecondsPerScrape * 100;
    memory.afterScrapeWindow = memoryMb(pid);

    // The gzip window: the same, asking for gzip as Prometheus does.
    const gzipped =
      GZIP_WINDOW_S > 0 ? await timedScrapes(port, GZIP_WINDOW_S, true) : { latencies: [], bytes: 0 };
    const gzipLatencies = gzipped.latencies;
    const gzipBytes = gzipped.bytes;
    memory.afterGzipWindow = memoryMb(pid);
    const rss = memory.afterGzipWindow.peak;
    const warnings = steward
      .output()
      .split("\n")
      .filter((line) => /\b(warn|error)\b/i.test(line));

    await stopChild(steward);
    const points = destinations.influxd
      ? await countPoints(destinations.influxd, windowStart, windowEnd)
      : undefined;
    return {
      startedMs,
      firstRoundMs,
      firstSessionRoundMs,
      appNamesFetches,
      windowSeconds: round1(seconds),
      health: health.figures(),
      sessions: sessions.figures(),
      cpuPercent: round1(cpuPercent),
      cpuPercentWithoutScrapes: round1(cpuPercentWithoutScrapes),
      peakRssMb: rss,
      memory,
      points,
      mqttMessages,
      mqttPerSecond: round1(mqttMessages / seconds),
      obsPosts,
      obsPostsPerSecond: round1(obsPosts / seconds),
      traffic,
      scrape: {
        ...distribution(latencies),
        bodyKb: round1(bodyBytes / 1024),
        series,
        cpuMsPerScrape: round1(cpuMsPerScrape),
      },
      gzipScrape:
        gzipLatencies.length === 0
          ? undefined
          : { ...distribution(gzipLatencies), kb: round1(gzipBytes / 1024) },
      warnings: warnings.slice(0, 20),
      warningCount: warnings.length,
    };
  } finally {
    await stopChild(steward);
  }
}

/** Points per measurement whose timestamp lies in [from, to): the largest field count of each. */
async function countPoints(influxd: Influxd, from: number, to: number) {
  const answer = await influxd.query(
    `SELECT count(*) FROM /.*/ WHERE time >= ${from}ms AND time < ${to}ms`,
    DATABASE,
  );
  const result = answer.results[0];
  if (result?.error) throw new Error(`InfluxDB count: ${result.error}`);
  const byMeasurement: Record<string, number> = {};
  for (const series of (result?.series ?? []) as { name: string; columns: string[]; values: unknown[][] }[]) {
    const row = series.values[0] ?? [];
    byMeasurement[series.name] = Math.max(...row.slice(1).map(Number));
  }
  const total = Object.values(byMeasurement).reduce((sum, n) => sum + n, 0);
  return { total, perSecond: round1(total / ((to - from) / 1000)), byMeasurement };
}

// ---------------------------------------------------------------------------------------------

export async function run(): Promise<unknown> {
  console.log(
    `Polling benchmark: ${SERVERS} simulated servers, health and sessions every ${INTERVAL_MS / 1000} s, ` +
      `windows of ${WINDOW_S} s (polling), ${SCRAPE_WINDOW_S} s (GET /metrics every ${SCRAPE_EVERY_MS} ms) and ${GZIP_WINDOW_S} s (the same with gzip); ` +
      `load average ${loadAverage()} on ${execFileSync("nproc").toString().trim()} cores`,
  );
  if (!mosquittoAvailable) throw new Error("mosquitto is not installed (apt-get install -y mosquitto)");
  if (!influxdAvailable)
    console.warn(
      "\n*** influxd not installed: the InfluxDB 1.x exporter is OFF and points/s not measured (apt-get install -y influxdb) ***\n",
    );

  const directory = await mkdtemp(join(tmpdir(), "steward-polling-bench-"));
  const pkiDir = join(directory, "pki");
  let platform: Child | undefined;
  let influxd: Influxd | undefined;
  let mosquitto: Mosquitto | undefined;
  let capture: Awaited<ReturnType<typeof startCaptureServer>> | undefined;
  let subscriber: mqtt.MqttClient | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  const cleanUp = async () => {
    clearTimeout(watchdog);
    for (const child of [...children]) await stopChild({ process: child, output: () => "" });
    await subscriber?.endAsync(true).catch(() => undefined);
    await capture?.stop().catch(() => undefined);
    await mosquitto?.stop().catch(() => undefined);
    await influxd?.close().catch(() => undefined);
    scrapeAgent.destroy();
    rmSync(directory, { recursive: true, force: true });
  };
  const timedOut = new Promise<never>((_, reject) => {
    watchdog = setTimeout(
      () => reject(new Error(`the polling benchmark did not finish within ${DEADLINE_MS / 1000} s`)),
      DEADLINE_MS,
    );
  });

  const body = async () => {
    await writeThrowawayPki(pkiDir, await generateThrowawayPki());
    platform = spawnChild(
      [fileURLToPath(bundle("test/bench/polling-platform.ts")), pkiDir, String(SERVERS)],
      {
        ipc: true,
      },
    );
    const ports = await message(
      platform,
      (m) => (m as { ready?: number[] }).ready,
      "simulated platform start",
      60_000,
    );

    const trivial = await measureTrivial(pkiDir, ports, platform);
    printTrivial(trivial);

    [influxd, mosquitto, capture] = await Promise.all([
      influxdAvailable ? startInfluxd() : undefined,
      startMosquitto(),
      startCaptureServer(),
    ]);
    let mqttReceived = 0;
    subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, { reconnectPeriod: 0 });
    subscriber.on("message", () => {
      mqttReceived += 1;
    });
    await subscriber.subscribeAsync(`${BASE_TOPIC}#`);
    const captured = capture;
    const destinations: Destinations = {
      influxd,
      mosquitto,
      captureUrl: capture.url,
      scrapePort: await freePort(),
    };
    const idleFile = join(directory, "steward-idle.yaml");
    writeFileSync(idleFile, stewardConfig(pkiDir, ports, destinations, false));
    const idle = await measureIdle(idleFile, directory, destinations.scrapePort);
    console.log(
      `  Steward with the same configuration and no server, after ${IDLE_S} s: RSS ${idle.rss} MB (peak ${idle.peak} MB)`,
    );
    const configFile = join(directory, "steward-polling.yaml");
    writeFileSync(configFile, stewardConfig(pkiDir, ports, destinations));
    const steward = await measureSteward(configFile, directory, destinations, platform, {
      mqttMessages: () => mqttReceived,
      obsPosts: () => captured.requests.length,
    });
    const ratios = {
      healthRoundP50: round1(steward.health.rounds.p50Ms / trivial.health.p50Ms),
      healthRoundP99: round1(steward.health.rounds.p99Ms / trivial.health.p99Ms),
      cpu: round1(steward.cpuPercent / trivial.cpuPercent),
      peakRss: round1(steward.peakRssMb / trivial.peakRssMb),
    };
    printSteward(steward, ratios);
    return { trivial, idle, steward, ratios, loadAverage: loadAverage() };
  };

  try {
    return await Promise.race([body(), timedOut]);
  } finally {
    await cleanUp();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const verdict = (ok: boolean) => (ok ? "met" : "NOT met");

function printTraffic(traffic: PlatformTraffic): string {
  return (
    `platform saw ${traffic.requests} requests, at most ${traffic.peakInFlight} in flight at once, ` +
    `${traffic.connectionsOpened} TLS connections opened (at most ${traffic.peakOpen} open), ` +
    `${traffic.callsPerServer.min}–${traffic.callsPerServer.max} health+session calls per server`
  );
}

function printTrivial(t: Awaited<ReturnType<typeof measureTrivial>>): void {
  console.log("  trivial node:https poller (one keep-alive agent, 10 at a time per list, JSON.parse only):");
  console.log(
    `    health round p50 ${t.health.p50Ms} ms, p99 ${t.health.p99Ms} ms (${t.health.count} rounds; first round ${t.firstRoundMs} ms); ` +
      `session round p50 ${t.sessions.p50Ms} ms, p99 ${t.sessions.p99Ms} ms; failed calls ${t.failedCalls}`,
  );
  console.log(`    CPU ${t.cpuPercent} % of one core, peak RSS ${t.peakRssMb} MB`);
  console.log(`    ${printTraffic(t.traffic)}`);
}

function printSteward(s: Awaited<ReturnType<typeof measureSteward>>, ratios: Record<string, number>): void {
  const h = s.health;
  console.log(
    `  Steward (node ${STEWARD_ENTRY.slice(ROOT.length)} start; InfluxDB 1.x, MQTT, observability metrics, scrape endpoint, app names):`,
  );
  console.log(
    `    started in ${s.startedMs} ms; first health round ${s.firstRoundMs} ms, first session round ${s.firstSessionRoundMs} ms (TLS handshakes); app-name fetches ${s.appNamesFetches ?? "n/a"}`,
  );
  console.log(
    `    health round p50 ${h.rounds.p50Ms} ms, p99 ${h.rounds.p99Ms} ms, max ${h.rounds.maxMs} ms (${h.rounds.count} rounds, ${h.skipped} skipped, ${h.missedByScrapes} not seen); ` +
      `calls ${h.callsSucceeded} ok, ${h.callsFailed} failed`,
  );
  console.log(
    `    session round p50 ${s.sessions.rounds.p50Ms} ms, p99 ${s.sessions.rounds.p99Ms} ms (${s.sessions.rounds.count} rounds, ${s.sessions.skipped} skipped); ` +
      `calls ${s.sessions.callsSucceeded} ok, ${s.sessions.callsFailed} failed`,
  );
  console.log(
    `    CPU ${s.cpuPercent} % of one core over ${s.windowSeconds} s with a scrape a second (about ${s.cpuPercentWithoutScrapes} % without), peak RSS ${s.peakRssMb} MB`,
  );
  console.log(
    `    RSS (peak so far), MB: ${Object.entries(s.memory)
      .map(([when, mb]) => `${when} ${mb.rss} (${mb.peak})`)
      .join(", ")}`,
  );
  if (s.points) {
    console.log(
      `    InfluxDB: ${s.points.total} points in the window = ${s.points.perSecond} points/s (${Object.entries(
        s.points.byMeasurement,
      )
        .map(([name, n]) => `${name} ${n}`)
        .join(", ")})`,
    );
  } else console.log("    InfluxDB: not measured (influxd not installed)");
  console.log(
    `    MQTT: ${s.mqttMessages} messages received (${s.mqttPerSecond}/s); observability metric API: ${s.obsPosts} POSTs (${s.obsPostsPerSecond}/s)`,
  );
  console.log(`    ${printTraffic(s.traffic)}`);
  console.log(
    `    GET /metrics (${s.scrape.series} series, ${s.scrape.bodyKb} KB): p50 ${s.scrape.p50Ms} ms, p99 ${s.scrape.p99Ms} ms, max ${s.scrape.maxMs} ms over ${s.scrape.count} scrapes; about ${s.scrape.cpuMsPerScrape} ms CPU each`,
  );
  if (s.gzipScrape) {
    console.log(
      `    GET /metrics with Accept-Encoding: gzip (${s.gzipScrape.kb} KB): p50 ${s.gzipScrape.p50Ms} ms, p99 ${s.gzipScrape.p99Ms} ms, max ${s.gzipScrape.maxMs} ms over ${s.gzipScrape.count} scrapes`,
    );
  }
  console.log(
    `    log lines at warn or error: ${s.warningCount}${s.warningCount > 0 ? `\n      ${s.warnings.join("\n      ")}` : ""}`,
  );
  console.log(
    `    ratios to the trivial poller: health round p50 ${ratios.healthRoundP50}×, p99 ${ratios.healthRoundP99}×, CPU ${ratios.cpu}×, peak RSS ${ratios.peakRss}×`,
  );
  console.log("  targets:");
  console.log(
    `    health round of ${SERVERS} servers p99 ${h.rounds.p99Ms} ms ≤ ${TARGETS.roundP99Ms} ms, at most ${s.traffic.peakInFlight} calls in flight: ${verdict(h.rounds.p99Ms <= TARGETS.roundP99Ms && h.skipped === 0)}`,
  );
  console.log(
    `    CPU ${s.cpuPercent} % ≤ ${TARGETS.cpuPercent} % of one core: ${verdict(s.cpuPercent <= TARGETS.cpuPercent)}`,
  );
  console.log(
    `    peak RSS ${s.peakRssMb} MB ≤ ${TARGETS.peakRssMb} MB: ${verdict(s.peakRssMb <= TARGETS.peakRssMb)}`,
  );
  console.log(
    `    GET /metrics p99 ${s.scrape.p99Ms} ms ≤ ${TARGETS.scrapeP99Ms} ms: ${verdict(s.scrape.p99Ms <= TARGETS.scrapeP99Ms)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
