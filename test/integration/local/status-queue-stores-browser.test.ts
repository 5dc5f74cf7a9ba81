/**
 * The status page's audit queue and stores sections as a person sees them in Debian's Chromium,
 * over a real Steward process in a bad environment: the JSON destination's directory (./out)
 * refuses writes, so that destination fails and the durable queue (128 KiB) fills behind it until
 * ingest answers 503; and ./data refuses writes, so that the key-value and schedule stores are
 * unavailable (refusing-directory.ts). The page must show the numbers of `GET /status` in the
 * right section with a warning, and drop the warnings by itself once both directories are usable.
 * Screenshots at 1280×800 and at 420 px wide are kept under test/artifacts/.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { eventWithId, expectNoCrash, postEvent } from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  type StewardPorts,
  stewardStatus,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { type Refusal, refuseWrites } from "../../helpers/refusing-directory.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const skip = skipWithoutChromium();
const MAX_DISK_BYTES = 131072;

let dir: string;
let ports: StewardPorts;
let steward: StewardProcess | undefined;
let browser: Browser | undefined;
let refusals: Refusal[] = [];

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "steward-status-queue-"));
  mkdirSync(join(dir, "data"));
  refusals = [refuseWrites(join(dir, "data")), refuseWrites(join(dir, "out"))];
  ports = await freeStewardPorts();
  writeJsonDestinationConfig(dir, { ports, queueDirectory: "./queue", maxDiskBytes: MAX_DISK_BYTES });
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/steward ready/, 30_000);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  if (skip) return;
  await browser?.close();
  if (steward?.child.exitCode === null) steward.child.kill("SIGKILL");
  for (const refusal of refusals) refusal.restore();
  rmSync(dir, { recursive: true, force: true });
});

/** Bytes as the page writes them (B, KiB, MiB… with one decimal). */
function shownBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = n;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${i === 0 ? value : (Math.round(value * 10) / 10).toLocaleString("en")} ${units[i]}`;
}

const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

interface QueueStatus {
  state: string;
  directory: string;
  bytesOnDisk: number;
  maxDiskBytes: number;
  full?: { since: string; refused: number };
  destinations: Record<string, { behindBytes: number; lastWrittenAt?: string }>;
}
interface StoreStatus {
  state: string;
  file: string;
  reason?: string;
  refused?: number;
}

async function status(): Promise<{ queue: QueueStatus; stores: Record<string, StoreStatus> }> {
  const doc = await stewardStatus(ports.ui);
  return {
    queue: (doc.audit as { queue: QueueStatus }).queue,
    stores: doc.stores as Record<string, StoreStatus>,
  };
}

/** Posts 2 KB events until ingest answers 503; the statuses in order. */
async function fillQueue(): Promise<number[]> {
  const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
  const statuses: number[] = [];
  while (statuses.length < 200 && statuses.at(-1) !== 503)
    statuses.push((await postEvent(url, eventWithId(randomUUID(), 2000))).status);
  return statuses;
}

/** Text of the cell under `column` in the row of `table` named `name`. */
async function cell(table: Locator, name: string, column: string): Promise<string> {
  const headers = await table.locator("th").allInnerTexts();
  return table.locator(`tr:has(td[data-name="${name}"]) td`).nth(headers.indexOf(column)).innerText();
}

/** The viewport, the whole page, and the two sections up close, at `width` × 800. */
async function shoot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await page.evaluate(() =>
    (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
  );
  await page.screenshot({ path: screenshotPath(`${name}-${width}`) });
  await page.screenshot({ path: screenshotPath(`${name}-${width}-full`), fullPage: true });
  await page
    .locator('[data-section="Audit queue"]')
    .screenshot({ path: screenshotPath(`${name}-${width}-queue`) });
  await page
    .locator('table[data-section="Stores"]')
    .screenshot({ path: screenshotPath(`${name}-${width}-stores`) });
}

describe.skipIf(skip)("status page: audit queue and stores in Chromium", () => {
  it("shows the full queue held back by the failing destination and the refused stores, with warnings, until both recover", async () => {
    // Prepare: fill the queue behind the failing JSON destination.
    const statuses = await fillQueue();
    const page = await (browser as Browser).context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const queue = page.locator('[data-section="Audit queue"]');
    const destinations = page.locator('table[data-section="Audit queue destinations"]');
    const stores = page.locator('table[data-section="Stores"]');

    // Act 1: the page refreshes while the queue is full and the stores are refused.
    await queue.locator(".warning").first().waitFor({ timeout: 10_000 });
    await expect.poll(() => cell(destinations, "json", "note"), { timeout: 10_000 }).toMatch(/^failing: /);
    const full = await status();
    const queueWarning = await queue.locator(".warning").allInnerTexts();
    const diskText = await queue.locator(".disk-used").innerText();
    const summary = await queue.locator(".queue-summary").innerText();
    const jsonRow = {
      behind: await cell(destinations, "json", "behind"),
      share: await cell(destinations, "json", "of the limit"),
      lastWritten: await cell(destinations, "json", "last written"),
      warned: await destinations.locator('tr:has(td[data-name="json"])').getAttribute("class"),
    };
    const kvDetail = await cell(stores, "Key-value store", "detail");
    const storeStates = [
      await cell(stores, "Key-value store", "state"),
      await cell(stores, "Schedule store", "state"),
    ];
    const storeFiles = [
      await cell(stores, "Key-value store", "file"),
      await cell(stores, "Schedule store", "file"),
    ];
    const storeRowClasses = await stores.locator("tr.warn").count();
    const alerts = await page.locator("#status-alerts li").allInnerTexts();
    await shoot(page, "status-queue-stores-refused", 1280);
    await shoot(page, "status-queue-stores-refused", 420);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Assess 1
    expect(statuses.at(-1)).toBe(503);
    expect(statuses.slice(0, -1).every((code) => code === 202)).toBe(true);
    expect(full.queue.full?.refused).toBeGreaterThanOrEqual(1);
    expect(queueWarning).toHaveLength(1);
    expect(queueWarning[0]).toContain(
      "Ingest refuses events (503): the queue is full on disk, held back by json.",
    );
    expect(queueWarning[0]).toMatch(/refused\.$/);
    expect(summary).toBe(`refusing events · ${join(dir, "queue")}`);
    expect(diskText).toBe(
      `disk ${shownBytes(full.queue.bytesOnDisk)} of 128 KiB (${percent(full.queue.bytesOnDisk, MAX_DISK_BYTES)} %)`,
    );
    const behind = full.queue.destinations.json?.behindBytes ?? 0;
    expect(behind).toBeGreaterThan(MAX_DISK_BYTES * 0.9);
    expect(jsonRow).toEqual({
      behind: shownBytes(behind),
      share: `${percent(behind, MAX_DISK_BYTES)} %`,
      lastWritten: "not since start",
      warned: "warn",
    });
    expect(storeStates).toEqual(["unavailable", "unavailable"]);
    expect(storeFiles).toEqual([full.stores.keyValues?.file, full.stores.schedules?.file]);
    expect(storeFiles[0]).toBe(join(dir, "data", "key-values.json"));
    expect(kvDetail).toContain(full.stores.keyValues?.reason ?? "no reason in /status");
    expect(kvDetail).toMatch(/EROFS|EACCES|ENOTDIR/);
    expect(storeRowClasses).toBe(2);
    expect(alerts).toEqual([
      "Audit queue: ingest refuses events (503): the queue is full on disk, held back by json.",
      "Key-value store unavailable: its calls are refused (503); the reason is under Stores.",
      "Schedule store unavailable: its calls are refused (503); the reason is under Stores.",
    ]);

    // Act 2: both directories become usable; the destination writes the backlog, the stores open.
    for (const refusal of refusals) refusal.restore();
    refusals = [];
    await expect
      .poll(() => cell(destinations, "json", "behind"), { timeout: 45_000, interval: 500 })
      .toBe("up to date");
    await expect.poll(() => cell(stores, "Schedule store", "state"), { timeout: 15_000 }).toBe("available");
    await expect.poll(() => cell(stores, "Key-value store", "state"), { timeout: 15_000 }).toBe("available");
    await expect.poll(() => queue.locator(".warning").count(), { timeout: 5_000 }).toBe(0);
    const recovered = {
      summary: await queue.locator(".queue-summary").innerText(),
      note: await cell(destinations, "json", "note"),
      lastWritten: await cell(destinations, "json", "last written"),
      warnRows: await page.locator("tr.warn").count(),
      alerts: await page.locator("#status-alerts li").count(),
      kvDetail: await cell(stores, "Key-value store", "detail"),
    };
    await shoot(page, "status-queue-stores-recovered", 1280);
    await page.close();

    // Assess 2
    expect(recovered).toEqual({
      summary: `taking events · ${join(dir, "queue")}`,
      note: "",
      lastWritten: expect.stringMatching(/^\d\d:\d\d:\d\d \(\d+s ago\)$/),
      warnRows: 0,
      alerts: 0,
      kvDetail: "",
    });
    expect((await status()).queue.full).toBeUndefined();
    expectNoCrash(steward?.output() ?? "");
  }, 120_000);
});
