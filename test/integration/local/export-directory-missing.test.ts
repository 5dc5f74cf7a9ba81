/**
 * Export directories that are missing, with a real process: `steward start` as a child with two
 * file destinations, the JSON files (`./out/json`, deleted while Steward runs) and the Parquet
 * files (`./blocked/parquet`, below a directory that refuses writes at start: a read-only bind
 * mount as root, see refusing-directory.ts). Ingest must answer 202 throughout (the durable log
 * keeps the events); the deleted directory is created again with a WARN; the one that cannot be
 * created gets one ERROR naming it with the OS's reason, its writes are retried, and once the
 * directory can be created every event that got a 202 is in both destinations.
 */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parquetEventIds } from "../../helpers/audit-destination-contents.ts";
import { until } from "../../helpers/eventually.ts";
import { eventWithId, expectNoCrash, jsonFileIds, logLines, postEvent } from "../../helpers/ingest-client.ts";
import { freeStewardPorts, writeJsonDestinationConfig } from "../../helpers/json-destination-steward.ts";
import { refuseWritesDuringTest, scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

async function parquetIds(directory: string): Promise<Set<string>> {
  try {
    return new Set(await parquetEventIds(directory));
  } catch {
    return new Set(); // no file yet
  }
}

async function postMany(url: string, count: number): Promise<{ accepted: string[]; statuses: number[] }> {
  const accepted: string[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const { status } = await postEvent(url, eventWithId(id));
    statuses.push(status);
    if (status === 202) accepted.push(id);
  }
  return { accepted, statuses };
}

describe("missing export directories", () => {
  it("creates a deleted export directory again, and retries one that cannot be created until it can, losing nothing", async () => {
    // Prepare
    const directory = scratchDirectory("steward-export-missing-");
    const refusal = refuseWritesDuringTest(join(directory, "blocked"));
    const ports = await freeStewardPorts();
    writeJsonDestinationConfig(directory, {
      ports,
      queueDirectory: "./data/audit-queue",
      parquet: { exportDirectory: "./blocked/parquet", writeFrequency: 300 },
    });
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    const jsonDirectory = join(directory, "out", "json");
    const parquetDirectory = join(directory, "blocked", "parquet");
    const proc = await startStewardIn(directory);

    // Act 1: events while the Parquet directory cannot be created; several retries pass.
    const first = await postMany(url, 20);
    await until(() => first.accepted.every((id) => jsonFileIds(jsonDirectory).has(id)), 10_000, 100);
    await proc.waitFor(
      /warn: [^\n]*writing audit events failed; will retry[^\n]*destination=parquet/,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 4000));

    // Act 2: the JSON directory is deleted while running; more events.
    rmSync(jsonDirectory, { recursive: true });
    const second = await postMany(url, 20);
    await until(() => second.accepted.every((id) => jsonFileIds(jsonDirectory).has(id)), 10_000, 100);

    // Act 3: the Parquet directory can be created again.
    const blockedFor = refusal.how;
    refusal.restore();
    const accepted = [...first.accepted, ...second.accepted];
    // Retries back off (1 s, 2 s, 4 s, ... at most 30 s).
    await until(
      async () => {
        const ids = await parquetIds(parquetDirectory);
        return accepted.every((id) => ids.has(id));
      },
      45_000,
      500,
    );
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited(20_000);

    // Assess
    console.log(`parquet directory blocked by: ${blockedFor}`);
    expect([...first.statuses, ...second.statuses].every((status) => status === 202)).toBe(true);
    const output = proc.output();
    const createErrors = logLines(output, "error", /cannot create the export directory/);
    expect(createErrors).toHaveLength(1);
    expect(createErrors[0]).toContain(parquetDirectory);
    // The OS's own reason, not the ENOENT of Node's recursive mkdir.
    expect(createErrors[0]).toMatch(/EROFS|EACCES|ENOTDIR/);
    expect(createErrors[0]).not.toContain("ENOENT");
    expect(logLines(output, "info", /writing audit events resumed[^\n]*destination=parquet/)).toHaveLength(1);
    const recreated = logLines(output, "warn", /export directory was missing; created it again/);
    expect(recreated).toHaveLength(1);
    expect(recreated[0]).toContain(jsonDirectory);
    expect(code).toBe(0);
    expectNoCrash(output);
  }, 90_000);
});
