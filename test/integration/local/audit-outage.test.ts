/**
 * Destination outages of the local runtime with the durable queue, with real processes and real
 * damage: `steward start` as a child under a steady load of about 200 events/s, one destination
 * made unavailable for 60 s and then restored. Throughout, every request must get a 202 (the log
 * on disk absorbs the backlog), the Steward process's resident memory must stay bounded, a WARN
 * must name the failing destination at most once a minute, and within a minute of the
 * destination coming back every event that got a 202 must be there.
 *
 * 1. InfluxDB 1.x (`timeseriesdb`) stopped and started again on the same port and data, next to
 *    the JSON files, which must not be held back by it.
 * 2. The JSON export directory made unwritable. As an ordinary user it is `chmod 0o500`; as root
 *    (where a mode does not stop writes) the directory is moved aside and a regular file of the
 *    same name takes its place, and restoring moves the directory back.
 *
 * The two run concurrently (separate processes, ports and directories) to keep the run short.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { influxEventIds } from "../../helpers/audit-destination-contents.ts";
import { writeAuditLoadConfig } from "../../helpers/audit-load-config.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, jsonFileIds, postEvent } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

const DATABASE = "steward_outage";
/** Events per second, spread over CLIENTS concurrent clients. */
const RATE = 200;
const CLIENTS = 4;
const OUTAGE_MS = 60_000;
const LOAD_AFTER_MS = 10_000;
const CATCH_UP_MS = 60_000;
/** How much the Steward process's resident memory may grow during the outage. */
const RSS_GROWTH_BOUND_BYTES = 64 * 1024 * 1024;

/** The answer's status, or why there was none. */
async function post(url: string, body: unknown): Promise<number | string> {
  const answer = await postEvent(url, body);
  return answer.status === 0 ? `no answer: ${answer.noAnswer}` : answer.status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Load {
  accepted: string[];
  /** Answer status (or why there was none) → how many requests got it. */
  statuses: Map<number | string, number>;
  stop(): Promise<void>;
}

/** RATE events a second from CLIENTS clients, each pacing itself, until stopped. */
function startLoad(url: string): Load {
  const accepted: string[] = [];
  const statuses = new Map<number | string, number>();
  const intervalMs = (1000 * CLIENTS) / RATE;
  let stopped = false;
  const client = async () => {
    let next = Date.now();
    while (!stopped) {
      const id = randomUUID();
      const status = await post(url, eventWithId(id));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 202) accepted.push(id);
      next += intervalMs;
      await sleep(Math.max(0, next - Date.now()));
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  return {
    accepted,
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

function rssBytes(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/** Times of the WARN lines naming `destination` as failing. */
function failureWarnings(output: string, destination: string): number[] {
  return output
    .split("\n")
    .filter(
      (line) =>
        / warn: .*writing audit events failed; will retry/.test(line) &&
        line.includes(`destination=${destination}`),
    )
    .map((line) => Date.parse(line.slice(0, line.indexOf(" "))));
}

interface Outage {
  /** The destination made unavailable, as the WARN names it. */
  destination: string;
  type: string;
  damage(dir: string): Promise<void>;
  restore(dir: string): Promise<void>;
  /** Ids each destination holds now. */
  holds(dir: string): Promise<Record<string, Set<string>>>;
}

interface Measured {
  statuses: Record<string, number>;
  accepted: number;
  rssBeforeMiB: number;
  rssMaxMiB: number;
  warnings: number[];
  /** From the restoration until every event accepted before it (the backlog) is written. */
  backlogMs: number | undefined;
  /** From the restoration until every accepted event is written (the load ran 10 s more). */
  catchUpMs: number | undefined;
  missing: Record<string, string[]>;
  exitCode: number | null;
}

async function runOutage(outage: Outage, { onTestFinished }: TestContext): Promise<Measured> {
  const dir = scratchDirectory(`steward-outage-${outage.destination}-`, onTestFinished);
  const ports = { ingest: await freePort(), rest: await freePort() };
  writeAuditLoadConfig(dir, { ports, type: outage.type, influx: { port: influxd.port, database: DATABASE } });
  // Only this test's process (the context's hook: the other test runs at the same time).
  const proc = await startStewardIn(dir, { onTestFinished });
  const pid = proc.child.pid as number;
  const load = startLoad(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`);

  await sleep(3000);
  const rssBefore = rssBytes(pid);
  await outage.damage(dir);
  let rssMax = rssBefore;
  const outageEnds = Date.now() + OUTAGE_MS;
  while (Date.now() < outageEnds) {
    await sleep(1000);
    rssMax = Math.max(rssMax, rssBytes(pid));
  }
  await outage.restore(dir);
  const restoredAt = Date.now();
  const backlog = load.accepted.length;
  const loadEnds = restoredAt + LOAD_AFTER_MS;
  let loading = true;
  let backlogMs: number | undefined;
  let catchUpMs: number | undefined;
  let missing: Record<string, string[]> = {};
  for (;;) {
    if (loading && Date.now() >= loadEnds) {
      await load.stop();
      loading = false;
    }
    const looked = Date.now();
    const accepted = load.accepted.slice();
    const holds = await outage.holds(dir);
    missing = Object.fromEntries(
      Object.entries(holds).map(([name, ids]) => [name, accepted.filter((id) => !ids.has(id))]),
    );
    const missingIndexes = Object.values(missing).flatMap((ids) => ids.map((id) => accepted.indexOf(id)));
    if (missingIndexes.every((index) => index >= backlog)) backlogMs ??= looked - restoredAt;
    if (!loading && missingIndexes.length === 0) {
      catchUpMs = looked - restoredAt;
      break;
    }
    if (!loading && looked - restoredAt > CATCH_UP_MS) break;
    await sleep(500);
  }

  proc.child.kill("SIGTERM");
  const { code } = await proc.exited(20_000);
  const measured: Measured = {
    statuses: Object.fromEntries(load.statuses),
    accepted: load.accepted.length,
    rssBeforeMiB: Math.round(rssBefore / 2 ** 20),
    rssMaxMiB: Math.round(rssMax / 2 ** 20),
    warnings: failureWarnings(proc.output(), outage.destination),
    backlogMs,
    catchUpMs,
    missing: Object.fromEntries(Object.entries(missing).map(([name, ids]) => [name, ids.slice(0, 5)])),
    exitCode: code,
  };
  console.log(`outage of ${outage.destination}:`, JSON.stringify({ ...measured, missing: undefined }));
  return measured;
}

function expectOutageRules(measured: Measured): void {
  // Every request got its 202: the log absorbed the backlog.
  expect(Object.keys(measured.statuses)).toEqual(["202"]);
  expect(measured.accepted).toBeGreaterThan(RATE * (OUTAGE_MS / 1000) * 0.8);
  // Memory stayed bounded while the backlog grew on disk.
  expect(measured.rssMaxMiB - measured.rssBeforeMiB).toBeLessThan(RSS_GROWTH_BOUND_BYTES / 2 ** 20);
  // The failing destination was named, at most once a minute.
  expect(measured.warnings.length).toBeGreaterThanOrEqual(1);
  expect(measured.warnings.length).toBeLessThanOrEqual(1 + Math.floor(OUTAGE_MS / 60_000));
  for (let i = 1; i < measured.warnings.length; i++)
    expect((measured.warnings[i] as number) - (measured.warnings[i - 1] as number)).toBeGreaterThanOrEqual(
      60_000,
    );
  // Within a minute of the destination coming back, every accepted event is there.
  expect(measured.missing).toEqual(
    Object.fromEntries(Object.keys(measured.missing).map((name) => [name, []])),
  );
  expect(measured.catchUpMs).toBeLessThanOrEqual(CATCH_UP_MS);
  expect(measured.exitCode).toBe(0);
}

const asRoot = process.getuid?.() === 0;

describe.skipIf(skip).concurrent("local audit pipeline: destination outage under load", () => {
  it("keeps answering 202 while InfluxDB is down for 60 s and has every event in it within a minute after", async (context) => {
    const measured = await runOutage(
      {
        destination: "timeseriesdb",
        type: "timeseriesdb,json",
        damage: () => influxd.stop(),
        restore: () => influxd.start(),
        holds: async (dir) => ({
          timeseriesdb: await influxEventIds(influxd, DATABASE),
          json: jsonFileIds(join(dir, "out", "json")),
        }),
      },
      context,
    );
    expectOutageRules(measured);
  }, 180_000);

  it("keeps answering 202 while the JSON export directory is unwritable for 60 s and has every event there within a minute after", async (context) => {
    let asides: string[] = [];
    const measured = await runOutage(
      {
        destination: "json",
        type: "json",
        async damage(dir) {
          const directory = join(dir, "out", "json");
          if (!asRoot) return chmodSync(directory, 0o500);
          asides = replaceWithFile(directory);
        },
        async restore(dir) {
          const directory = join(dir, "out", "json");
          if (!asRoot) return chmodSync(directory, 0o755);
          putBack(directory, asides);
        },
        holds: async (dir) => ({ json: jsonFileIds(join(dir, "out", "json")) }),
      },
      context,
    );
    expectOutageRules(measured);
  }, 180_000);
});

/**
 * As root: moves `directory` aside and puts a regular file of its name in its place. Steward makes
 * its export directory again when it finds it missing, and may do so between the two steps; then
 * the directory it made is moved aside too and the file is tried again. Returns the directories
 * moved aside, the original first.
 */
function replaceWithFile(directory: string): string[] {
  const asides: string[] = [];
  for (;;) {
    const aside = `${directory}.aside${asides.length}`;
    renameSync(directory, aside);
    asides.push(aside);
    try {
      writeFileSync(directory, "not a directory\n", { flag: "wx" });
      return asides;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "EEXIST" && code !== "EISDIR") || asides.length >= 20) throw error;
    }
  }
}

/** Undoes replaceWithFile: the original directory back in place, with what the others hold. */
function putBack(directory: string, asides: readonly string[]): void {
  rmSync(directory);
  const [original, ...made] = asides;
  renameSync(original as string, directory);
  for (const aside of made) {
    for (const name of readdirSync(aside)) renameSync(join(aside, name), join(directory, name));
    rmSync(aside, { recursive: true });
  }
}
