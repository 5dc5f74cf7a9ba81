/**
 * Which destinations an audit event goes to, across restarts with another selection, with real
 * processes (`steward start` as a child, the durable queue, Parquet and objectData JSON files):
 * an event is written to the destinations selected when it was accepted and to no others. With
 * no destination selected, events are counted and kept nowhere; a destination selected for the
 * first time starts with the events accepted from then on; one no longer selected stops holding
 * the log back, and selected again later it starts afresh; a destination whose cursor file is
 * lost reads the log again from its oldest record (at least once).
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parquetEventIds } from "../../helpers/audit-destination-contents.ts";
import { until } from "../../helpers/eventually.ts";
import { eventWithId, expectNoCrash, jsonFileIds, logLines, postEvent } from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  type JsonDestinationConfig,
  stewardStatus,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

const QUEUE_DIRECTORY = "./data/audit-queue";

/** Posts one event per id; returns the statuses. */
async function postAll(url: string, ids: readonly string[], padBytes = 0): Promise<number[]> {
  const statuses: number[] = [];
  for (const id of ids) statuses.push((await postEvent(url, eventWithId(id, padBytes))).status);
  return statuses;
}

const newIds = (count: number) => Array.from({ length: count }, () => randomUUID());

/** The ids among `ids` that appear in any file under `directory` (the queue's log, cursors, manifest). */
function idsOnDisk(directory: string, ids: readonly string[]): string[] {
  if (!existsSync(directory)) return [];
  const contents = readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), "latin1"));
  return ids.filter((id) => contents.some((content) => content.includes(id)));
}

async function queueStatus(port: number): Promise<{
  bytesOnDisk: number;
  destinations: Record<string, { behindBytes: number }>;
}> {
  return ((await stewardStatus(port)).audit as { queue: never }).queue;
}

async function stop(steward: StewardProcess): Promise<number | null> {
  steward.child.kill("SIGTERM");
  return (await steward.exited(20_000)).code;
}

const parquetIn = async (dir: string) =>
  existsSync(join(dir, "out", "parquet")) ? (await parquetEventIds(join(dir, "out", "parquet"))).sort() : [];

describe("local audit pipeline: which destinations an event goes to, when first selected", () => {
  it("keeps events accepted with no destination selected nowhere, also not for a destination selected later", async () => {
    // Prepare
    const dir = scratchDirectory("steward-selection-none-");
    const ports = await freeStewardPorts();
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    const config: JsonDestinationConfig = {
      ports,
      queueDirectory: QUEUE_DIRECTORY,
      parquet: { exportDirectory: "./out/parquet", writeFrequency: 0 },
    };
    writeJsonDestinationConfig(dir, { ...config, enable: false });
    const unselected = newIds(20);
    const later = randomUUID();

    // Act: 20 events with no destination, then a restart with Parquet selected and one event
    const first = await startStewardIn(dir);
    const statusesUnselected = await postAll(url, unselected);
    const countedUnselected = (await stewardStatus(ports.ui)).audit as { events: { accepted: number } };
    const firstCode = await stop(first);
    const onDiskAfterFirst = idsOnDisk(join(dir, "data"), unselected);
    writeJsonDestinationConfig(dir, { ...config, type: "parquet" });
    const second = await startStewardIn(dir);
    const statusLater = (await postEvent(url, eventWithId(later))).status;
    await until(async () => (await parquetIn(dir)).includes(later), 15_000, 100);
    const secondCode = await stop(second);

    // Assess
    expect(statusesUnselected).toEqual(unselected.map(() => 202));
    expect(countedUnselected.events.accepted).toBe(20);
    expect(onDiskAfterFirst).toEqual([]);
    expect(statusLater).toBe(202);
    expect(await parquetIn(dir)).toEqual([later]);
    expect(idsOnDisk(join(dir, "data"), unselected)).toEqual([]);
    expect([firstCode, secondCode]).toEqual([0, 0]);
    expectNoCrash(first.output() + second.output());
  }, 60_000);

  it("gives a destination selected for the first time the events accepted from then on, and the others everything", async () => {
    // Prepare
    const dir = scratchDirectory("steward-selection-new-");
    const ports = await freeStewardPorts();
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    const config: JsonDestinationConfig = {
      ports,
      queueDirectory: QUEUE_DIRECTORY,
      parquet: { exportDirectory: "./out/parquet", writeFrequency: 0 },
    };
    writeJsonDestinationConfig(dir, { ...config, type: "parquet" });
    const before = newIds(10);
    const after = newIds(10);

    // Act: Parquet alone, then Parquet and JSON
    const first = await startStewardIn(dir);
    const statusesBefore = await postAll(url, before);
    await until(async () => (await parquetIn(dir)).length === before.length, 15_000, 100);
    const firstCode = await stop(first);
    writeJsonDestinationConfig(dir, { ...config, type: "parquet,json" });
    const second = await startStewardIn(dir);
    const statusesAfter = await postAll(url, after);
    await until(async () => (await parquetIn(dir)).length >= 20, 15_000, 100);
    await until(() => after.every((id) => jsonFileIds(join(dir, "out", "json")).has(id)), 15_000, 100);
    const secondCode = await stop(second);

    // Assess
    expect([...statusesBefore, ...statusesAfter].every((status) => status === 202)).toBe(true);
    expect([...jsonFileIds(join(dir, "out", "json"))].sort()).toEqual([...after].sort());
    expect(await parquetIn(dir)).toEqual([...before, ...after].sort());
    expect([firstCode, secondCode]).toEqual([0, 0]);
  }, 60_000);
});

describe("local audit pipeline: which destinations an event goes to, when deselected or its cursor is lost", () => {
  it("lets a destination no longer selected stop holding the log back, and starts it afresh when selected again", async () => {
    // Prepare: a regular file where Parquet's export directory should be keeps it behind.
    const dir = scratchDirectory("steward-selection-dropped-");
    const ports = await freeStewardPorts();
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    const config: JsonDestinationConfig = {
      ports,
      queueDirectory: QUEUE_DIRECTORY,
      // Segments of 64 KiB: the 100 events below fill several, which Parquet holds back.
      maxDiskBytes: 512 * 1024,
      parquet: { exportDirectory: "./out/parquet", writeFrequency: 0 },
    };
    writeJsonDestinationConfig(dir, { ...config, type: "json,parquet" });
    const outFiles = join(dir, "out");
    mkdirSync(outFiles);
    writeFileSync(join(outFiles, "parquet"), "not a directory\n");
    const behind = newIds(100);
    const whileDropped = randomUUID();
    const again = newIds(5);

    // Act 1: JSON writes everything, Parquet nothing
    const first = await startStewardIn(dir);
    const statusesBehind = await postAll(url, behind, 2000);
    await until(() => behind.every((id) => jsonFileIds(join(outFiles, "json")).has(id)), 20_000, 100);
    const statusBehind = await queueStatus(ports.ui);
    const firstCode = await stop(first);

    // Act 2: Parquet no longer selected
    writeJsonDestinationConfig(dir, { ...config, type: "json" });
    const second = await startStewardIn(dir);
    const statusDropped = await queueStatus(ports.ui);
    const statusWhileDropped = (await postEvent(url, eventWithId(whileDropped))).status;
    await until(() => jsonFileIds(join(outFiles, "json")).has(whileDropped), 15_000, 100);
    const secondCode = await stop(second);

    // Act 3: Parquet selected again, its directory usable
    rmSync(join(outFiles, "parquet"));
    writeJsonDestinationConfig(dir, { ...config, type: "json,parquet" });
    const third = await startStewardIn(dir);
    const statusesAgain = await postAll(url, again);
    await until(async () => (await parquetIn(dir)).length >= again.length, 15_000, 100);
    const thirdCode = await stop(third);

    // Assess
    expect([...statusesBehind, statusWhileDropped, ...statusesAgain].every((status) => status === 202)).toBe(
      true,
    );
    expect(statusBehind.destinations.parquet?.behindBytes).toBeGreaterThan(200_000);
    expect(statusBehind.bytesOnDisk).toBeGreaterThan(200_000);
    // Dropped: one WARN naming it and what it leaves unwritten; the log frees what it held.
    const dropped = logLines(second.output(), "warn", /no longer selected/);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toContain("destination=parquet");
    expect(dropped[0]).toMatch(/unwrittenBytes=\d{6,}/);
    expect(Object.keys(statusDropped.destinations)).toEqual(["json"]);
    expect(statusDropped.bytesOnDisk).toBeLessThan(100_000);
    // Selected again: only what was accepted from then on.
    expect(await parquetIn(dir)).toEqual([...again].sort());
    expect([firstCode, secondCode, thirdCode]).toEqual([0, 0, 0]);
    expectNoCrash(first.output() + second.output() + third.output());
  }, 90_000);

  it("reads the log again from its oldest record for a destination whose cursor file was lost", async () => {
    // Prepare
    const dir = scratchDirectory("steward-selection-lost-");
    const ports = await freeStewardPorts();
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    writeJsonDestinationConfig(dir, {
      ports,
      queueDirectory: QUEUE_DIRECTORY,
      parquet: { exportDirectory: "./out/parquet", writeFrequency: 0 },
    });
    const ids = newIds(10);
    const jsonDirectory = join(dir, "out", "json");

    // Act: both write everything; JSON's cursor file and files go; restart
    const first = await startStewardIn(dir);
    const statuses = await postAll(url, ids);
    await until(async () => (await parquetIn(dir)).length === ids.length, 15_000, 100);
    await until(() => ids.every((id) => jsonFileIds(jsonDirectory).has(id)), 15_000, 100);
    const firstCode = await stop(first);
    rmSync(join(dir, "data", "audit-queue", "cursors", "json.json"));
    rmSync(jsonDirectory, { recursive: true });
    const second = await startStewardIn(dir);
    await until(() => ids.every((id) => jsonFileIds(jsonDirectory).has(id)), 15_000, 100);
    const secondCode = await stop(second);

    // Assess: JSON got everything again; Parquet, whose cursor is there, nothing again.
    expect(statuses.every((status) => status === 202)).toBe(true);
    expect([...jsonFileIds(jsonDirectory)].sort()).toEqual([...ids].sort());
    expect(await parquetIn(dir)).toEqual([...ids].sort());
    const lost = logLines(second.output(), "warn", /cursor/);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toContain("destination=json");
    expect([firstCode, secondCode]).toEqual([0, 0]);
  }, 60_000);
});
