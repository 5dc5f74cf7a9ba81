/**
 * The status page's Qlik Cloud licences as a person sees them in Debian's Chromium, over a real
 * `steward start` taking in two simulated tenants: sim-a's licence is read at start (each
 * allotment's use, the overage, the licence's status, last valid day and when it was read); sim-b
 * answers 404 "License not found", which shows as a warning with its error under its licences'
 * heading and among the alerts at the top. Screenshots at 1280 and 420 px wide are kept under
 * test/artifacts/.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import {
  type CloudStewardPorts,
  freeCloudStewardPorts,
  registerWebhooks,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const skip = skipWithoutChromium();
const scratch = suiteScratchDirectory("steward-status-cloud-licences-");
let cloud: SimulatedCloud;
let ports: CloudStewardPorts;
let steward: StewardProcess;
let browser: Browser | undefined;

beforeAll(async () => {
  if (skip) return;
  cloud = await startSimulatedCloud({ tenants: 2 });
  ports = await freeCloudStewardPorts();
  writeCloudConfig(scratch.root, { tenants: cloud.tenants, ports, pollInterval: "every 1 hour" });
  registerWebhooks(cloud.tenants, ports.ingest);
  (cloud.tenants[1] as SimulatedTenant).state.licences.missing = true;
  steward = await startStewardIn(scratch.root, { onTestFinished: () => undefined });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (steward?.child.exitCode === null) steward.child.kill("SIGKILL");
  await cloud?.stop();
});

/** The block of the section headed `title`: its heading, notes and table. */
const block = (page: Page, title: string) => page.locator(`#status-tables div:has(> h3:text-is("${title}"))`);

/** The cells of the row named `name` of the table in `section`. */
const row = (section: Locator, name: string) =>
  section.locator(`tr:has(td[data-name="${name}"]) td`).allInnerTexts();

describe.skipIf(skip)("status page: Qlik Cloud licences in Chromium", () => {
  it("shows each tenant's allotments and licence, and a tenant whose licences could not be read with its error", async () => {
    const page = await (browser as Browser).context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const a = block(page, "Qlik Cloud licences sim-a");
    const b = block(page, "Qlik Cloud licences sim-b");
    await a.locator('td[data-name="Professional"]').waitFor({ timeout: 10_000 });
    await b.locator("p.warning").waitFor({ timeout: 10_000 });
    await a.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("status-qlik-cloud-licences-1280"), fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    await a.screenshot({ path: screenshotPath("status-qlik-cloud-licences-420") });

    expect(await a.locator("th").allInnerTexts()).toEqual([
      "allotment",
      "used",
      "total",
      "available",
      "overage",
    ]);
    expect(await row(a, "Professional")).toEqual(["Professional", "15", "200", "185", "–"]);
    expect(await row(a, "Analyzer")).toEqual(["Analyzer", "120", "500", "380", "–"]);
    expect(await row(a, "Analyzer time (minutes)")).toEqual([
      "Analyzer time (minutes)",
      "242",
      "300",
      "58",
      "100",
    ]);
    expect(await a.locator("p.muted").first().innerText()).toMatch(
      /^licence Ok · valid until 2027-12-31 \(\d+ days left\) · read \d\d:\d\d:\d\d \(/,
    );
    expect(await a.locator("p.warning").count()).toBe(0);
    expect(await b.locator("table").count()).toBe(0);
    expect(await b.locator("p.warning").innerText()).toMatch(
      /^The last reading failed at \d\d:\d\d:\d\d \(.*\): .*answered 404: License not found\.$/,
    );
    expect(await b.locator("p.muted").allInnerTexts()).toEqual(["no reading yet"]);
    expect(await page.locator("#status-alerts li").allInnerTexts()).toContain(
      "Qlik Cloud tenant sim-b: its licences could not be read; the error is under Qlik Cloud licences sim-b.",
    );
    expect(await page.locator("#status-alerts li").allInnerTexts()).not.toEqual(
      expect.arrayContaining([expect.stringContaining("tenant sim-a: its licence")]),
    );
    await page.close();
  });
});
