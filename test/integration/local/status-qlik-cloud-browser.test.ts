/**
 * The status page's Qlik Cloud section as a person sees it in Debian's Chromium, over a real
 * `steward start` taking in two simulated tenants: sim-a works (a failed reload delivered by its
 * webhook, one delivery refused for its signature), sim-b has a wrong OAuth client secret. Each
 * tenant's table shows its address, credential kind and ways in, the last run, each cursor and its
 * lag, the token's state, the API errors with the last error and the runs by way in; the refused
 * token and signatures are listed among the alerts at the top; no secret reaches the page or any
 * answer it loads. Screenshots at 1280 and 420 px wide are kept under test/artifacts/.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { sendSignedEvent } from "../../../local/simulated-cloud/signed-event-sender.ts";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { until } from "../../helpers/eventually.ts";
import {
  type CloudStewardPorts,
  cloudEventCount,
  freeCloudStewardPorts,
  registerWebhooks,
  webhookUrl,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const skip = skipWithoutChromium();
const WRONG_SECRET = "wrong-client-secret-Kq73";
const scratch = suiteScratchDirectory("steward-status-cloud-");
let cloud: SimulatedCloud;
let ports: CloudStewardPorts;
let steward: StewardProcess;
let browser: Browser | undefined;

beforeAll(async () => {
  if (skip) return;
  cloud = await startSimulatedCloud({ tenants: 2 });
  ports = await freeCloudStewardPorts();
  writeCloudConfig(scratch.root, { tenants: cloud.tenants, ports });
  const file = join(scratch.root, "steward.yaml");
  const config = parse(readFileSync(file, "utf8"));
  config.Service.qlikCloud.tenants[1].auth.oauth.clientSecret = WRONG_SECRET;
  writeFileSync(file, stringify(config));
  registerWebhooks(cloud.tenants, ports.ingest);
  steward = await startStewardIn(scratch.root, { onTestFinished: () => undefined });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (steward?.child.exitCode === null) steward.child.kill("SIGKILL");
  await cloud?.stop();
});

/** Text of the `column` cell in the row of `table` named `name`. */
async function cell(table: Locator, name: string, column: string): Promise<string> {
  const headers = await table.locator("th").allInnerTexts();
  return table.locator(`tr:has(td[data-name="${name}"]) td`).nth(headers.indexOf(column)).innerText();
}

describe.skipIf(skip)("status page: Qlik Cloud tenants in Chromium", () => {
  it("shows each tenant's last run, cursors, token and API errors, alerts what needs an operator, and no secret", async () => {
    // Prepare: a failed run of sim-a by its webhook, and one delivery with a wrong signature.
    const good = cloud.tenants[0] as SimulatedTenant;
    const reload = good.finishReload({ status: "FAILED" });
    await good.deliver(reload, { form: "cloudevents" });
    const refused = await sendSignedEvent({ url: webhookUrl(ports.ingest, "sim-a"), body: "{}", secret: "" });
    expect(refused.status).toBe(401);
    // The tenant is polled every 5 s too, and on a busy machine a poll can find the run before its
    // delivery arrives: whichever way took it first processed it, and the other saw a duplicate.
    const processedBy = async (way: "webhook" | "poll") =>
      cloudEventCount(ports.scrape, "sim-a", way, "processed");
    await until(async () => (await processedBy("webhook")) + (await processedBy("poll")) === 1, 20_000);
    const way = (await processedBy("webhook")) === 1 ? "webhook" : "poll";
    const page = await (browser as Browser).context.newPage();
    const bodies: string[] = [];
    page.on("response", (response) => {
      void response.text().then(
        (text) => bodies.push(text),
        () => undefined,
      );
    });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Act
    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const a = page.locator('table[data-section="Qlik Cloud tenant sim-a"]');
    const b = page.locator('table[data-section="Qlik Cloud tenant sim-b"]');
    await a.locator('td[data-name="cursor audits"]').waitFor({ timeout: 10_000 });
    await expect
      .poll(() => cell(b, "API errors", "state"), { timeout: 10_000 })
      .toMatch(/^401 \(\d+ calls?\)$/);
    const section = page.locator("#status-tables");
    await a.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("status-qlik-cloud-1280"), fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    await a.screenshot({ path: screenshotPath("status-qlik-cloud-420") });

    // Assess
    const summary = (table: Locator) => table.locator("xpath=..").locator("p").first().innerText();
    expect(await summary(a)).toBe(`${good.url} · OAuth client · webhook on · polling every 5 seconds`);
    expect(await summary(b)).toBe(
      `${cloud.tenants[1]?.url} · OAuth client · webhook on · polling every 5 seconds`,
    );
    expect(await cell(a, "last run", "state")).toBe("failed (FAILED)");
    // The detail names the input that found the run: the webhook, or the reloads or audits API
    // when a poll found it first.
    const inputs = way === "webhook" ? "webhook" : "(reloads|audits)";
    expect(await cell(a, "last run", "detail")).toMatch(
      new RegExp(`^app ${reload.appId}, reload ${reload.id}, by ${inputs}, `),
    );
    expect(await cell(a, "cursor reloads", "state")).toMatch(/^lag 2m \d+s$/);
    expect(await cell(a, "cursor audits", "detail")).toMatch(/^read up to \d\d:\d\d:\d\d \(/);
    expect(await cell(a, "token", "state")).toMatch(/^valid until \d\d:\d\d:\d\d \(.+ left\) \(1 fetched\)$/);
    expect(await cell(a, "API errors", "state")).toBe("none");
    expect(await cell(a, `runs by ${way}`, "state")).toBe("1 processed");
    // With the run taken by a poll first, its delivery was counted a duplicate beside the refusal.
    expect(await cell(a, "runs by webhook", "detail")).toMatch(
      way === "webhook" ? /^bad signature 1$/ : /bad signature 1/,
    );
    expect(await cell(b, "token", "state")).toMatch(
      /^none: the token endpoint refused \(0 fetched, \d+ refused\)$/,
    );
    expect(await cell(b, "API errors", "detail")).toMatch(/answered 401: invalid client \(\d\d:\d\d:\d\d/);
    expect(await cell(b, "cursors", "state")).toBe("no round finished yet");
    expect(await page.locator("#status-alerts li").allInnerTexts()).toEqual(
      expect.arrayContaining([
        "Qlik Cloud tenant sim-a: 1 webhook deliveries refused for a missing or wrong signature.",
        "Qlik Cloud tenant sim-b: its OAuth token could not be fetched; the last error is under Qlik Cloud tenant sim-b.",
      ]),
    );
    const secrets = [
      WRONG_SECRET,
      ...cloud.tenants.flatMap((t) => [t.fixture.clientSecret, t.fixture.webhookSecret]),
    ];
    const dom = await section.innerHTML();
    for (const secret of secrets) expect(dom).not.toContain(secret);
    for (const body of bodies) for (const secret of secrets) expect(body).not.toContain(secret);
    expect(bodies.some((body) => body.includes('"qlikCloud"'))).toBe(true);
    await page.close();
  });
});
