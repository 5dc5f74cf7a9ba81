import { createSocket } from "node:dgram";
import { SIM_TASKS } from "../../local/simulated-platform/catalogue.ts";
import { recordedRun } from "../../local/simulated-platform/task-event-sender.ts";
import type { ScrapedMetric } from "../helpers/prometheus-text.ts";
import { cpuSeconds, loadAverage1, memoryMb } from "./process-stats.ts";
import {
  RECIPIENTS,
  type RunningSteward,
  startSteward,
  startTaskEventSite,
  type TaskEventSite,
} from "./task-events-site.ts";
import { startTrivialAlerter } from "./task-events-trivial-alerter.ts";

const DATAGRAMS = Number(process.env.BENCH_TASK_DATAGRAMS ?? 200);
/** The task-event queue's maxConcurrent, when not its default (for comparing settings). */
const MAX_CONCURRENT =
  process.env.BENCH_TASK_MAX_CONCURRENT === undefined
    ? undefined
    : Number(process.env.BENCH_TASK_MAX_CONCURRENT);
const BURST_MS = 1000;
const RSS_TARGET_MB = 150;
const DELIVERY_TIMEOUT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Arrived {
  emails: number;
  teams: number;
  hooks: number;
  points: number;
  mqtt: number;
}

/** Sends the burst to `port`: each datagram a new failed run, recorded in the repository first. */
async function sendBurst(site: TaskEventSite, port: number): Promise<number> {
  const socket = createSocket("udp4");
  const startedAt = Date.now();
  for (let i = 0; i < DATAGRAMS; i++) {
    const task = SIM_TASKS[i % SIM_TASKS.length] as (typeof SIM_TASKS)[number];
    const datagram = recordedRun(site.platform.repository.taskEvents, "failed", {
      task,
      // Runs of one task end minutes apart in a night, never in the same millisecond.
      stoppedAtMs: startedAt - (DATAGRAMS - i) * 60_000,
    });
    await new Promise<void>((resolve, reject) =>
      socket.send(datagram, port, "127.0.0.1", (e) => (e ? reject(e) : resolve())),
    );
    const due = startedAt + ((i + 1) * BURST_MS) / DATAGRAMS;
    if (due > Date.now()) await sleep(due - Date.now());
  }
  socket.close();
  return startedAt;
}

async function arrived(site: TaskEventSite, database: string): Promise<Arrived> {
  const paths = site.capture.requests.map((request) => request.path);
  return {
    emails: site.smtp.received.reduce((sum, email) => sum + email.envelopeTo.length, 0),
    teams: paths.filter((path) => path === "/teams").length,
    hooks: paths.filter((path) => path === "/hook").length,
    points: site.influxd === undefined ? 0 : await site.points(database),
    mqtt: site.mqttMessages(),
  };
}

/**
 * Polls until everything expected has arrived: the time after `startedAt` it took (undefined if
 * it never did) and when each kind was complete.
 */
async function delivered(site: TaskEventSite, database: string, expected: Arrived, startedAt: number) {
  const deadline = startedAt + DELIVERY_TIMEOUT_MS;
  const keys = Object.keys(expected) as (keyof Arrived)[];
  const completeMs: Partial<Record<keyof Arrived, number>> = {};
  while (Date.now() < deadline) {
    const now = await arrived(site, database);
    for (const key of keys) if (now[key] >= expected[key]) completeMs[key] ??= Date.now() - startedAt;
    if (keys.every((key) => completeMs[key] !== undefined)) return { ms: Date.now() - startedAt, completeMs };
    await sleep(20);
  }
  return { ms: undefined, completeMs };
}

const samples = (metrics: ScrapedMetric[], name: string) =>
  metrics.find((metric) => metric.name === name)?.samples ?? [];

/** Alerts by destination and outcome, and the task events processed and dropped. */
function counted(metrics: ScrapedMetric[]) {
  const alerts: Record<string, Record<string, number>> = {};
  for (const { labels, value } of samples(metrics, "steward_alerts_total")) {
    const name = labels.destination ?? "";
    const outcome = labels.outcome ?? "";
    const destination = alerts[name] ?? {};
    destination[outcome] = (destination[outcome] ?? 0) + value;
    alerts[name] = destination;
  }
  const tasks = samples(metrics, "steward_task_events_total");
  const udp = samples(metrics, "steward_udp_messages_total").filter((s) => s.labels.queue === "task_events");
  const sum = (list: typeof tasks, test: (outcome: string) => boolean) =>
    list.filter((s) => test(s.labels.outcome ?? "")).reduce((total, s) => total + s.value, 0);
  return {
    alerts,
    processed: sum(tasks, (outcome) => outcome === "processed"),
    dropped: sum(udp, (outcome) => outcome.startsWith("dropped_")),
  };
}

function expectedArrivals(site: TaskEventSite, rateLimited: boolean): Arrived {
  const runs = rateLimited ? SIM_TASKS.length : DATAGRAMS;
  return {
    emails: runs * RECIPIENTS.length,
    teams: runs,
    hooks: runs,
    points: site.influxd === undefined ? 0 : DATAGRAMS,
    mqtt: site.broker === undefined ? 0 : 2 * DATAGRAMS,
  };
}

/** One run of the burst through a fresh Steward; its figures and the verdicts they give. */
async function stewardRun(site: TaskEventSite, rateLimitSeconds: number) {
  const database = `bench_tasks_${rateLimitSeconds}`;
  const steward: RunningSteward = await startSteward(site, {
    rateLimitSeconds,
    database,
    maxConcurrent: MAX_CONCURRENT,
  });
  try {
    const idleRssMb = memoryMb(steward.pid).rss;
    const cpuBefore = cpuSeconds(steward.pid);
    site.forget();
    const expected = expectedArrivals(site, rateLimitSeconds > 0);
    const startedAt = await sendBurst(site, steward.ports.udp);
    const benchCpuBefore = process.cpuUsage();
    const { ms, completeMs } = await delivered(site, database, expected, startedAt);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    await sleep(1000); // anything more than expected would arrive now
    const got = await arrived(site, database);
    const { alerts, processed, dropped } = counted(await steward.metrics());
    const figures = {
      rateLimitSeconds,
      deliveredMs: ms,
      completeMs,
      /** CPU of this process (the simulated platform, SMTP server, capture server, subscriber) meanwhile. */
      siteCpuSeconds: Number(((benchCpu.user + benchCpu.system) / 1e6).toFixed(2)),
      expected,
      arrived: got,
      processed,
      dropped,
      alerts,
      cpuSeconds: Number((cpuSeconds(steward.pid) - cpuBefore).toFixed(2)),
      idleRssMb: Number(idleRssMb.toFixed(1)),
      peakRssMb: Number(memoryMb(steward.pid).peak.toFixed(1)),
    };
    const suppressedRight = ["email", "teams", "webhook"].every((name) => {
      const own = alerts[name] ?? {};
      const sent = own.sent ?? 0;
      return (
        sent + (own.suppressed ?? 0) === DATAGRAMS && (rateLimitSeconds === 0 || sent === SIM_TASKS.length)
      );
    });
    const verdicts = {
      "every alert delivered, nothing more":
        ms !== undefined && JSON.stringify(got) === JSON.stringify(expected),
      "every run processed, none dropped": processed === DATAGRAMS && dropped === 0,
      "rate-limited runs counted as suppressed": suppressedRight,
      // The target is the rate-limited night's; the run without limits reports its peak as a figure.
      ...(rateLimitSeconds > 0 && { [`peak RSS ≤ ${RSS_TARGET_MB} MB`]: figures.peakRssMb <= RSS_TARGET_MB }),
    };
    return { figures, verdicts };
  } finally {
    await steward.stop();
  }
}

async function trivialRun(site: TaskEventSite) {
  const alerter = await startTrivialAlerter({
    smtpPort: site.smtp.port,
    recipients: RECIPIENTS,
    urls: [`${site.capture.url}/teams`, `${site.capture.url}/hook`],
  });
  try {
    site.forget();
    const startedAt = await sendBurst(site, alerter.port);
    const expected = {
      emails: DATAGRAMS * RECIPIENTS.length,
      teams: DATAGRAMS,
      hooks: DATAGRAMS,
      points: 0,
      mqtt: 0,
    };
    const { ms } = await delivered(site, "", expected, startedAt);
    await alerter.settled();
    return ms;
  } finally {
    await alerter.stop();
  }
}

function print(title: string, run: Awaited<ReturnType<typeof stewardRun>>, trivialMs?: number): void {
  const { figures: f } = run;
  const ratio =
    trivialMs !== undefined && f.deliveredMs !== undefined
      ? ` (${(f.deliveredMs / trivialMs).toFixed(2)}× the trivial alerter)`
      : "";
  console.log(
    `  ${title}: everything delivered ${f.deliveredMs ?? "NOT"} ms after the first datagram${ratio}`,
  );
  console.log(`    arrived ${JSON.stringify(f.arrived)}, expected ${JSON.stringify(f.expected)}`);
  console.log(
    `    complete after (ms) ${JSON.stringify(f.completeMs)}; site CPU meanwhile ${f.siteCpuSeconds} s`,
  );
  console.log(
    `    task events processed ${f.processed}, dropped ${f.dropped}; alerts ${JSON.stringify(f.alerts)}`,
  );
  console.log(`    Steward CPU ${f.cpuSeconds} s, RSS idle ${f.idleRssMb} MB, peak ${f.peakRssMb} MB`);
  for (const [verdict, ok] of Object.entries(run.verdicts))
    console.log(`    ${ok ? "PASS" : "FAIL"} ${verdict}`);
}

export async function run(): Promise<unknown> {
  console.log(
    `Reload-task benchmark: ${DATAGRAMS} failed-reload datagrams over ${BURST_MS} ms, ${SIM_TASKS.length} tasks, load ${loadAverage1()}`,
  );
  const site = await startTaskEventSite();
  try {
    if (site.influxd === undefined)
      console.log("  influxd not installed: no InfluxDB points (apt-get install -y influxdb)");
    if (site.broker === undefined)
      console.log("  mosquitto not installed: no broker messages (apt-get install -y mosquitto)");
    const limited = await stewardRun(site, 600);
    print("rate limited (600 s per task)", limited);
    const trivialMs = await trivialRun(site);
    console.log(
      `  trivial alerter (no lookups, queue, templates or limits): everything delivered ${trivialMs ?? "NOT"} ms after the first datagram`,
    );
    const unlimited = await stewardRun(site, 0);
    print("no rate limit", unlimited, trivialMs);
    const failed = [limited, unlimited].some((r) => Object.values(r.verdicts).includes(false));
    if (failed) process.exitCode = 1;
    return { limited: limited.figures, unlimited: unlimited.figures, trivialMs };
  } finally {
    await site.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
