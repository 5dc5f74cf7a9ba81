/**
 * End-to-end benchmark of the local audit path as users run it: `steward start` (bundled, plain
 * `node`, as `npm start` runs it) with the durable queue on and the Parquet and JSON (objectData)
 * destinations, loaded over HTTP by autocannon with 50 connections posting `BENCH_E2E_EVENTS`
 * distinct events (default 200,000; one in ten carries objectData, so one JSON file per ten
 * events). The clock runs from the first POST until every acknowledged event is on disk: after
 * the load, Steward gets SIGTERM, which writes every batch still buffered, and the time is taken
 * when it has exited (so the figure includes the shutdown, and errs low). Then the rows are
 * counted with DuckDB and the JSON files listed: both must match the 202s received. Reported:
 * events/s end to end, the ingest rate while loading (202s/s), the server's CPU seconds per
 * 100,000 events and its peak RSS. Target: ≥ 20,000 events/s on the 2-core machine.
 * `BENCH_E2E_NODE_ARGS` passes options to Steward's `node` (e.g. `--cpu-prof`).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import autocannon from "autocannon";
import { freePort } from "../helpers/free-port.ts";
import { spawnSteward } from "../helpers/steward-process.ts";
import { cpuSeconds, peakRssMb } from "./process-stats.ts";

const EVENTS = Number(process.env.BENCH_E2E_EVENTS ?? 200_000);
const CONNECTIONS = 50;
const TOKEN = "bench-token-0123456789";

export interface EndToEndFigures {
  events: number;
  acknowledged: number;
  /** Acknowledged events / seconds from the first POST until Steward exited with all written. */
  eventsPerSecond: number;
  /** 202s per second while the load ran. */
  ingestPerSecond: number;
  loadSeconds: number;
  drainSeconds: number;
  cpuSecondsPer100k: number;
  peakRssMb: number;
  parquetRows: number;
  jsonFiles: number;
  non202: number;
}

/** Event `i`: an object.view.duration, or (one in ten) a screenshot.url.received with objectData. */
function body(i: number): string {
  const timestamp = new Date(Date.UTC(2026, 10, 24, 8) + i).toISOString();
  const context = {
    appId: "0a1b2c3d-0000-4000-8000-000000000001",
    appName: "Sales",
    sheetId: "sheet-1",
    sheetName: "Overview",
    user: `UserDirectory=LAB; UserId=user${i % 200}`,
  };
  const event =
    i % 10 === 0
      ? {
          screenshotUrl: "https://qlik.example/shot.png",
          selectionTxnId: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
          objectId: `obj-${i % 50}`,
          objectData: { objectType: "table", dimensions: [{ fieldName: "Region", values: ["Nord", "Süd"] }] },
        }
      : { objectId: `obj-${i % 50}`, duration: 1000 + (i % 5000), visible: i % 2 === 0, leftAt: timestamp };
  return JSON.stringify({
    schemaVersion: 1,
    eventId: randomUUID(),
    timestamp,
    type: i % 10 === 0 ? "screenshot.url.received" : "object.view.duration",
    correlationId: String(1777868693436 + i),
    source: { kind: "qlik-sense-extension", name: "audit-qs", version: "0.3.2" },
    payload: { context, event },
  });
}

function config(port: number, restPort: number): string {
  return `Service:
  auditEvents:
    port: ${port}
    apiToken: ${TOKEN}
    rateLimit:
      enable: false
    queue:
      durable: true
      directory: ./queue
    destination:
      enable: true
      type: parquet,json
      parquet:
        exportDirectory: ./out/parquet
      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  restServer:
    port: ${restPort}
`;
}

async function parquetRows(directory: string): Promise<number> {
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  const result = await connection.runAndReadAll(
    `SELECT count(*)::INTEGER AS n FROM read_parquet('${directory}/**/*.parquet', hive_partitioning = true)`,
  );
  connection.closeSync();
  return Number(result.getRowObjectsJS()[0]?.n);
}

export async function run(): Promise<EndToEndFigures> {
  const directory = mkdtempSync(join(tmpdir(), "steward-bench-e2e-"));
  let stop = () => {};
  try {
    const port = await freePort();
    writeFileSync(join(directory, "steward.yaml"), config(port, await freePort()));
    const bodies = Array.from({ length: EVENTS }, (_, i) => body(i));
    const steward = spawnSteward(["start", "--config", "steward.yaml"], {
      cwd: directory,
      nodeArgs: (process.env.BENCH_E2E_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== ""),
    });
    stop = () => steward.child.kill("SIGKILL");
    await steward.waitFor(/steward ready/, 60_000);
    const pid = steward.child.pid as number;

    let next = 0;
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/api/v1/audit-event`,
      connections: CONNECTIONS,
      amount: EVENTS,
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${TOKEN}`,
        "x-audit-client-version": "0.3.2",
      },
      requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % EVENTS] as string }) }],
    });
    // Every 2xx the ingest API answers is a 202.
    const acknowledged = result["2xx"];
    const loaded = performance.now();
    const peakRss = peakRssMb(pid);
    // SIGTERM writes every buffered batch before the process exits: then all is on disk.
    let cpuAtEnd = cpuSeconds(pid);
    const sampler = setInterval(() => {
      cpuAtEnd = Math.max(cpuAtEnd, cpuSeconds(pid));
    }, 50);
    steward.child.kill("SIGTERM");
    const exit = await steward.exited(60_000);
    clearInterval(sampler);
    const finished = performance.now();
    if (exit.code !== 0) throw new Error(`steward exited with ${exit.code}:\n${steward.output()}`);

    const rows = await parquetRows(join(directory, "out", "parquet"));
    const jsonFiles = readdirSync(join(directory, "out", "json")).filter((name) =>
      name.endsWith(".json"),
    ).length;
    const expectedJson = bodies.filter((_, i) => i % 10 === 0).length;
    const figures: EndToEndFigures = {
      events: EVENTS,
      acknowledged,
      eventsPerSecond: Math.round(acknowledged / ((finished - started) / 1000)),
      ingestPerSecond: Math.round(acknowledged / ((loaded - started) / 1000)),
      loadSeconds: Number(((loaded - started) / 1000).toFixed(2)),
      drainSeconds: Number(((finished - loaded) / 1000).toFixed(2)),
      cpuSecondsPer100k: Number((((cpuAtEnd - cpuBefore) / acknowledged) * 100_000).toFixed(2)),
      peakRssMb: Number(peakRss.toFixed(1)),
      parquetRows: rows,
      jsonFiles,
      non202: result.non2xx + result.errors,
    };
    console.log(
      `end to end (steward start, durable queue, parquet + json; ${EVENTS} distinct events, ${CONNECTIONS} connections):`,
    );
    console.table(figures);
    const complete = rows === acknowledged && acknowledged === EVENTS && jsonFiles === expectedJson;
    console.log(
      complete
        ? `  all ${acknowledged} acknowledged events on disk (${rows} Parquet rows, ${jsonFiles} JSON files)`
        : `  MISMATCH: ${acknowledged} acknowledged of ${EVENTS}, ${rows} Parquet rows, ${jsonFiles} of ${expectedJson} JSON files`,
    );
    console.log(
      `  ${figures.eventsPerSecond} events/s end to end (target >= 20,000), ${figures.ingestPerSecond} 202s/s while loading`,
    );
    if (!complete) process.exitCode = 1;
    return figures;
  } finally {
    stop();
    rmSync(directory, { recursive: true, force: true });
  }
}
