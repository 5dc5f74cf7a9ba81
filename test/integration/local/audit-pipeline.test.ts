/**
 * The local runtime end to end, as a user runs it: `steward start` with a config, events posted
 * over HTTP, then SIGTERM. Every event that got a 202 must be on disk afterwards (Parquet rows read
 * back with hyparquet, one objectData JSON file per event), including events still in flight when
 * the signal arrived.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { envelopeOfType } from "../../helpers/audit-envelopes.ts";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

async function startSteward(dir: string): Promise<{ proc: StewardProcess; ingestUrl: string }> {
  const [ingestPort, restPort] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${ingestPort}
    rateLimit:
      maxPerMinute: 100000
    queue:
      maxSize: 100000
    destination:
      enable: true
      type: parquet,json
      parquet:
        exportDirectory: ./out/parquet
        writeFrequency: 60000
      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  restServer:
    port: ${restPort}
`,
  );
  const proc = await startStewardIn(dir);
  return { proc, ingestUrl: `http://127.0.0.1:${ingestPort}/api/v1/audit-event` };
}

function post(url: string, envelope: Record<string, unknown>): Promise<number> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
    body: JSON.stringify(envelope),
  }).then(
    (response) => response.status,
    () => 0, // connection refused once the listener has closed: not accepted
  );
}

const screenshotEvent = (eventId: string) => ({
  ...envelopeOfType("screenshot.url.received", { objectData: { objectType: "table", rows: [eventId] } }),
  eventId,
});

async function parquetEventIds(directory: string): Promise<string[]> {
  const ids: string[] = [];
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".parquet")) continue;
    const bytes = readFileSync(join(entry.parentPath, entry.name));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = (await parquetReadObjects({ file })) as { eventId: string }[];
    ids.push(...rows.map((row) => row.eventId));
  }
  return ids.sort();
}

describe("local audit pipeline", () => {
  it("writes every accepted event as a Parquet row and an objectData file, flushed on SIGTERM", async () => {
    const dir = scratchDirectory("steward-e2e-");
    const { proc, ingestUrl } = await startSteward(dir);
    const ids = Array.from({ length: 25 }, () => randomUUID());
    const statuses = await Promise.all(ids.map((id) => post(ingestUrl, screenshotEvent(id))));
    expect(statuses.every((status) => status === 202)).toBe(true);

    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);

    expect(await parquetEventIds(join(dir, "out", "parquet"))).toEqual([...ids].sort());
    const jsonFiles = readdirSync(join(dir, "out", "json"));
    expect(jsonFiles).toHaveLength(ids.length);
    for (const id of ids) expect(jsonFiles.some((name) => name.includes(id))).toBe(true);
  });

  it("loses nothing accepted when SIGTERM arrives under load", async () => {
    const dir = scratchDirectory("steward-e2e-");
    const { proc, ingestUrl } = await startSteward(dir);
    const accepted: string[] = [];
    let stop = false;
    const client = async () => {
      while (!stop) {
        const id = randomUUID();
        const status = await post(ingestUrl, screenshotEvent(id));
        if (status === 202) accepted.push(id);
        else if (status === 0) return;
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((done) => setTimeout(done, 700));
    proc.child.kill("SIGTERM");
    const exit = await proc.exited();
    stop = true;
    await Promise.all(clients);

    expect(exit.code).toBe(0);
    expect(accepted.length).toBeGreaterThan(20);
    expect(await parquetEventIds(join(dir, "out", "parquet"))).toEqual([...accepted].sort());
    expect(readdirSync(join(dir, "out", "json"))).toHaveLength(accepted.length);
  });
});
