/**
 * The status page's licences section as a person sees it in Debian's Chromium, over a real
 * `steward start` monitoring the simulated platform (server licence expiring in 12 days, release
 * in a dry run): access licence use per type, the server licence's expiry marked and listed among
 * the alerts at the top, the version and what the release would do, all as `GET /status` says.
 * Screenshots at 1280 and 420 px wide are kept under test/artifacts/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { expiryDateIn } from "../../../../local/simulated-platform/license-simulation.ts";
import {
  type Browser,
  launchChromium,
  screenshotPath,
  skipWithoutChromium,
} from "../../../helpers/chromium.ts";
import { stewardStatus } from "../../../helpers/json-destination-steward.ts";
import { onFreePorts, SIMULATED_CONFIG_FILE, SIMULATOR_READY } from "../../../helpers/simulator-for-test.ts";
import { type StewardProcess, spawnSteward } from "../../../helpers/steward-process.ts";

const skip = skipWithoutChromium();
let dir: string;
let sim: StewardProcess | undefined;
let steward: StewardProcess | undefined;
let browser: Browser | undefined;
let uiPort: number;

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "steward-status-licences-"));
  sim = spawnSteward(
    [
      "simulate-platform",
      "--port",
      "0",
      "--generate-certs",
      "--license-expires-in-days",
      "12",
      "--write-config",
      SIMULATED_CONFIG_FILE,
    ],
    { cwd: dir },
  );
  await sim.waitFor(SIMULATOR_READY, 30_000);
  const config = parse(readFileSync(join(dir, SIMULATED_CONFIG_FILE), "utf8"));
  ({ uiPort } = await onFreePorts(config));
  writeFileSync(join(dir, "steward.yaml"), stringify(config));
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/licence release dry run done/, 30_000);
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  if (skip) return;
  await browser?.close();
  steward?.child.kill("SIGKILL");
  sim?.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Text of the cell under `column` in the row of `table` named `name`. */
async function cell(table: Locator, name: string, column: string): Promise<string> {
  const headers = await table.locator("th").allInnerTexts();
  return table.locator(`tr:has(td[data-name="${name}"]) td`).nth(headers.indexOf(column)).innerText();
}

interface MonitorStatus {
  accessLicences: { type: string; counts: Record<string, number> }[];
  serverLicence: { daysUntilExpiry: number; expiryDate: string; alert: string };
}

describe.skipIf(skip)("status page: licences in Chromium", () => {
  it("shows access licence use, the expiring server licence with an alert, the version and the dry run", async () => {
    // Prepare
    const page = await (browser as Browser).context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`http://127.0.0.1:${uiPort}/`);
    const access = page.locator('table[data-section="Access licences"]');
    const server = page.locator('table[data-section="Server licence"]');

    // Act
    await access.waitFor({ timeout: 10_000 });
    const doc = await stewardStatus(uiPort);
    const monitor = (doc.licenses as { monitor: MonitorStatus }).monitor;
    const types = await access.locator("td[data-name]").allInnerTexts();
    const analyzerTotal = await cell(access, "Analyzer", "total");
    const capacity = await cell(access, "Analyzer capacity (minutes)", "allocated");
    const expiry = {
      state: await cell(server, "server licence", "state"),
      date: await cell(server, "server licence", "date or label"),
      detail: await cell(server, "server licence", "detail"),
      marked: await server.locator('tr:has(td[data-name="server licence"])').getAttribute("class"),
    };
    const version = await cell(server, "version", "detail");
    const release = await cell(server, "licence release", "detail");
    const alerts = await page.locator("#status-alerts li").allInnerTexts();
    await page
      .locator('[data-section="Licences"]')
      .screenshot({ path: screenshotPath("status-licences-1280") });
    await page.setViewportSize({ width: 420, height: 800 });
    await page
      .locator('[data-section="Licences"]')
      .screenshot({ path: screenshotPath("status-licences-420") });

    // Assess
    expect(types).toEqual(["Professional", "Analyzer", "Analyzer capacity (minutes)"]);
    expect(monitor.accessLicences.map((a) => a.type)).toEqual([
      "professional",
      "analyzer",
      "analyzer_capacity",
    ]);
    expect(analyzerTotal).toBe("200");
    expect(capacity).toBe("6,000");
    expect(expiry).toEqual({
      state: "valid",
      date: expiryDateIn(12, Date.now()),
      detail: "12 days left",
      marked: "warn",
    });
    expect(monitor.serverLicence.daysUntilExpiry).toBe(12);
    expect(version).toBe("Qlik Sense 14.212.5");
    expect(release).toBe("dry run: 7 would be released, 2 kept");
    expect(alerts).toEqual([`${monitor.serverLicence.alert}.`]);
    expect(alerts[0]).toContain("about to expire in 12 days");
  });
});
