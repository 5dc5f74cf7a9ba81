/**
 * SIGTERM within 10 s whatever the audit destination does, with real processes: `steward start`
 * as a child writing to a real InfluxDB 1.x that is frozen (SIGSTOP: a write in flight hangs, as
 * to a server that stopped answering) or stopped (every write refused at once and retried).
 * With the durable queue Steward exits 0 within 10 s, what it had not written stays in the log,
 * and after a restart every event is in InfluxDB; also when a client still uploading holds the
 * ingest listener's stop until the deadline, and the destination is given up before the queue
 * began stopping. With `durable: false` the events that could not be written are counted in one
 * ERROR and the exit status is 1.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { decodeRecords } from "../../../core/adapters/local/durable-queue/record-format.ts";
import { segmentBaseOf } from "../../../core/adapters/local/durable-queue/segment-files.ts";
import { influxEventIds } from "../../helpers/audit-destination-contents.ts";
import { writeAuditLoadConfig } from "../../helpers/audit-load-config.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, expectNoCrash, logLines, postEvent } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

/** What the process may take from the signal to its exit. */
const EXIT_WITHIN_MS = 10_000;

interface Setup {
  dir: string;
  url: string;
  database: string;
  /** The config UI's `GET /status`. */
  statusUrl: string;
}

async function setUp(
  prefix: string,
  options: { durable?: boolean; batchSize?: number } = {},
): Promise<Setup> {
  const dir = scratchDirectory(prefix);
  const ports = { ingest: await freePort(), rest: await freePort() };
  const ui = await freePort();
  const database = `steward_${prefix.replace(/\W/g, "_")}${Date.now()}`;
  writeAuditLoadConfig(dir, {
    ports,
    ui,
    type: "timeseriesdb",
    influx: { port: influxd.port, database },
    ...(options.durable === undefined ? {} : { durable: options.durable }),
    ...(options.batchSize === undefined ? {} : { timeseriesdbBatchSize: options.batchSize }),
  });
  return {
    dir,
    url: `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`,
    database,
    statusUrl: `http://127.0.0.1:${ui}/status`,
  };
}

/** Posts one event per id; every one must get its 202. */
async function postAll(url: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) expect((await postEvent(url, eventWithId(id))).status).toBe(202);
}

/** Starts Steward, posts `ids` and waits until InfluxDB has them (the database exists then). */
/** How many events Steward counts written to InfluxDB (`GET /status`). */
async function writtenToInflux(setup: Setup): Promise<number | undefined> {
  const document = (await (await fetch(setup.statusUrl)).json()) as {
    destinations: Record<string, { written?: number } | undefined>;
  };
  return document.destinations["audit.timeseriesdb"]?.written;
}

async function warmUp(setup: Setup, ids: readonly string[]): Promise<StewardProcess> {
  const steward = await startStewardIn(setup.dir);
  await postAll(setup.url, ids);
  await until(async () => (await influxEventIds(influxd, setup.database)).size === ids.length, 15_000, 100);
  // InfluxDB answers a query with the points before Steward has read the answer to its write: wait
  // until Steward counts them written too, so that stopping InfluxDB next cannot make them unwritten.
  await until(async () => (await writtenToInflux(setup)) === ids.length, 15_000, 100);
  return steward;
}

/** SIGTERM; the exit status and how long after the signal the process exited. */
async function terminate(steward: StewardProcess): Promise<{ code: number | null; ms: number }> {
  steward.child.kill("SIGTERM");
  const { code, ms } = await steward.exited(20_000);
  return { code, ms };
}

/** The eventIds of the log's records at or after the destination's persisted cursor: what it has not written. */
function unwrittenInLog(dir: string, destination: string): string[] {
  const queue = join(dir, "data", "audit-queue");
  let cursor = 0;
  try {
    cursor = (
      JSON.parse(readFileSync(join(queue, "cursors", `${destination}.json`), "utf8")) as { position: number }
    ).position;
  } catch {
    // No cursor file: the destination has written nothing.
  }
  const ids: string[] = [];
  for (const name of readdirSync(queue).sort()) {
    const base = segmentBaseOf(name);
    if (base === undefined) continue;
    for (const record of decodeRecords(readFileSync(join(queue, name))).records) {
      if (base + record.offset >= cursor)
        ids.push((JSON.parse(record.payload) as { envelope: { eventId: string } }).envelope.eventId);
    }
  }
  return ids;
}

/** Starts the stopped InfluxDB again (once: a second start would leave the first server running unseen). */
async function startAgain(): Promise<void> {
  if (influxd.pid() === undefined) await influxd.start();
}

const newIds = (count: number) => Array.from({ length: count }, () => randomUUID());

describe.skipIf(skip)("local audit pipeline: SIGTERM while the destination is in trouble", () => {
  it("exits 0 within 10 s while InfluxDB is frozen mid-write, keeps what was not written in the log and writes it after a restart", async () => {
    // Prepare
    const setup = await setUp("steward-frozen-");
    const written = newIds(5);
    const frozen = newIds(30);
    const first = await warmUp(setup, written);
    const pid = influxd.pid() as number;

    // Act: freeze InfluxDB, post, let a write hang, SIGTERM; then thaw and restart
    process.kill(pid, "SIGSTOP");
    onTestFinished(() => {
      process.kill(pid, "SIGCONT");
    });
    await postAll(setup.url, frozen);
    // Past writeFrequency (500 ms): a write is in flight, and its request cannot time out (10 s) before the deadline.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const exit = await terminate(first);
    const leftInLog = unwrittenInLog(setup.dir, "timeseriesdb");
    process.kill(pid, "SIGCONT");
    const second = await startStewardIn(setup.dir);
    await until(async () => (await influxEventIds(influxd, setup.database)).size >= 35, 20_000, 100);
    const secondExit = await terminate(second);

    // Assess
    console.log(`SIGTERM with InfluxDB frozen: exit ${exit.code} after ${exit.ms} ms`);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(first.output()).not.toMatch(/shutdown did not finish/);
    expect(leftInLog).toEqual(expect.arrayContaining(frozen));
    expect([...(await influxEventIds(influxd, setup.database))].sort()).toEqual(
      [...written, ...frozen].sort(),
    );
    expect(secondExit.code).toBe(0);
    expectNoCrash(first.output() + second.output());
  }, 90_000);

  it("exits 0 within 10 s while InfluxDB is down and more is waiting than the writer buffers, and writes it all after a restart", async () => {
    // Prepare: batches of 10, so the writer buffers at most 100 events and the log holds the rest.
    const setup = await setUp("steward-down-", { batchSize: 10 });
    const written = newIds(5);
    const waiting = newIds(300);
    const first = await warmUp(setup, written);

    // Act: stop InfluxDB, post, SIGTERM while the writes are retried; then start both again
    await influxd.stop();
    onTestFinished(() => startAgain());
    await postAll(setup.url, waiting);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const exit = await terminate(first);
    const leftInLog = unwrittenInLog(setup.dir, "timeseriesdb");
    await startAgain();
    const second = await startStewardIn(setup.dir);
    await until(async () => (await influxEventIds(influxd, setup.database)).size >= 305, 30_000, 200);
    const secondExit = await terminate(second);

    // Assess
    console.log(`SIGTERM with InfluxDB down: exit ${exit.code} after ${exit.ms} ms`);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(leftInLog).toEqual(expect.arrayContaining(waiting));
    const keptInLog = logLines(first.output(), "warn", /stays in the queue's log/);
    expect(keptInLog).toHaveLength(1);
    expect(keptInLog[0]).toContain("destination=timeseriesdb");
    expect(logLines(first.output(), "error", /./)).toEqual([]);
    expect([...(await influxEventIds(influxd, setup.database))].sort()).toEqual(
      [...written, ...waiting].sort(),
    );
    expect(secondExit.code).toBe(0);
    expectNoCrash(first.output() + second.output());
  }, 90_000);

  it("with InfluxDB frozen and a client still uploading at the deadline, names the destination given up once, at WARN, and exits 0 within 10 s", async () => {
    // Prepare: batches of 10, so the log holds more than the writer buffers and its reader waits.
    const setup = await setUp("steward-uploading-", { batchSize: 10 });
    const written = newIds(5);
    const waiting = newIds(300);
    const first = await warmUp(setup, written);
    const pid = influxd.pid() as number;
    process.kill(pid, "SIGSTOP");
    onTestFinished(() => {
      process.kill(pid, "SIGCONT");
    });
    await postAll(setup.url, waiting);
    // A client that sends its headers and part of the body, then nothing: its request is in
    // flight until the shutdown gives it up, and the ingest listener's stop waits for it.
    const stalled = request(setup.url, {
      method: "POST",
      agent: false,
      headers: {
        "content-type": "application/json",
        "content-length": "1000",
        "x-audit-client-version": "0.3.0",
      },
    });
    const stalledOutcome = new Promise<string>((resolve) => {
      stalled.once("response", (response) => resolve(`HTTP ${response.statusCode}`));
      stalled.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    stalled.write("{");
    await new Promise((resolve) => setTimeout(resolve, 600));

    // Act: SIGTERM; then thaw InfluxDB and start again
    const exit = await terminate(first);
    process.kill(pid, "SIGCONT");
    const second = await startStewardIn(setup.dir);
    await until(async () => (await influxEventIds(influxd, setup.database)).size >= 305, 30_000, 200);
    const secondExit = await terminate(second);

    // Assess
    console.log(`SIGTERM with InfluxDB frozen and a client uploading: exit ${exit.code} after ${exit.ms} ms`);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(await stalledOutcome).toBe("ECONNRESET");
    const keptInLog = logLines(first.output(), "warn", /stays in the queue's log/);
    expect(keptInLog).toHaveLength(1);
    expect(keptInLog[0]).toContain("destination=timeseriesdb");
    expect(logLines(first.output(), "error", /./)).toEqual([]);
    expect([...(await influxEventIds(influxd, setup.database))].sort()).toEqual(
      [...written, ...waiting].sort(),
    );
    expect(secondExit.code).toBe(0);
    expectNoCrash(first.output() + second.output());
  }, 90_000);

  it("without the durable queue exits 1 within 10 s while InfluxDB is down, the lost events counted in one ERROR", async () => {
    // Prepare
    const setup = await setUp("steward-memory-", { durable: false, batchSize: 10 });
    const first = await warmUp(setup, newIds(5));

    // Act
    await influxd.stop();
    onTestFinished(() => startAgain());
    await postAll(setup.url, newIds(200));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const exit = await terminate(first);
    await startAgain();

    // Assess
    console.log(`SIGTERM with InfluxDB down, durable: false: exit ${exit.code} after ${exit.ms} ms`);
    expect(exit.code).toBe(1);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    const errors = logLines(first.output(), "error", /./);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/could not be written before shutdown/);
    expect(errors[0]).toContain("timeseriesdb=200");
    expectNoCrash(first.output());
  }, 90_000);
});
