/**
 * The config UI, the status page and the API explorer as a person sees them: a real Steward
 * process (`steward start --config`) and Debian's Chromium. Asserts the YAML lines, the masks
 * (no secret in the DOM, the download or any answer the page loads, credentials inside URLs
 * included), the status numbers moving
 * after events are posted (events without objectData counted skipped by the json destination, not
 * written), the stores open and no queue section for the in-memory queue, and the
 * explorer listing the ingest API and trying GET /v4/ping.
 * Screenshots of the last run are kept under test/artifacts/.
 */

import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";
import { envRef } from "../../unit/core/config/helpers.ts";

const skip = skipWithoutChromium();

const ENV_SECRET = "env-secret-Zq81xKw";
const FILE_SECRET = "file-secret-Hy62pLm";
const HEARTBEAT_PATH = "check/Uu3nBvSecretPath";
const URL_PASSWORD = "url-password-Rt52";
const HUB_TICKET = "hub-ticket-Wq19";
const LINK_KEY = "link-key-Pz07";

let dir: string;
let proc: StewardProcess;
let browser: Browser;
let ports: { ingest: number; rest: number; ui: number };

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "steward-pages-"));
  ports = { ingest: await freePort(), rest: await freePort(), ui: await freePort() };
  writeFileSync(
    join(dir, "steward.yaml"),
    [
      "Service:",
      "  auditEvents:",
      `    port: ${ports.ingest}`,
      `    apiToken: ${envRef("STEWARD_API_TOKEN")}`,
      "    queue: { durable: false }",
      "    destination:",
      "      type: json",
      "      json: { objectdata: { enable: true, exportDirectory: ./audit-json } }",
      "  restServer:",
      `    port: ${ports.rest}`,
      `    apiToken: ""`,
      "  mqttConfig:",
      "    enable: false",
      `    password: ${FILE_SECRET}`,
      "  heartbeat:",
      "    enable: false",
      `    remoteURL: https://hbuser:${URL_PASSWORD}@heartbeat.example.com/${HEARTBEAT_PATH}`,
      "  qlikSenseUrls:",
      `    hub: https://sense.example.com/hub?ticket=${HUB_TICKET}`,
      "  genericUrls:",
      `    - { id: wiki, linkText: Runbook, url: "https://wiki.example.com/runbooks/reloads?api_key=${LINK_KEY}" }`,
      "  configVisualisation:",
      "    enable: true",
      "    host: 127.0.0.1",
      `    port: ${ports.ui}`,
      "    obfuscate: true",
      "",
    ].join("\n"),
  );
  proc = spawnSteward(["start", "--config", "steward.yaml"], {
    cwd: dir,
    env: { STEWARD_API_TOKEN: ENV_SECRET },
  });
  await proc.waitFor(/steward ready/, 30_000);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  if (skip) return;
  await browser?.close();
  proc?.child.kill("SIGTERM");
  await proc?.exited(15_000);
  rmSync(dir, { recursive: true, force: true });
});

/** A page that records the text of every answer it loads. */
async function openRecorded(url: string): Promise<{ page: Page; bodies: string[] }> {
  const page = await browser.context.newPage();
  const bodies: string[] = [];
  page.on("response", (response) => {
    void response.text().then(
      (text) => bodies.push(text),
      () => undefined,
    );
  });
  await page.goto(url);
  return { page, bodies };
}

/** The browser's getComputedStyle, typed here (the project compiles without the DOM library). */
type WithStyles = { getComputedStyle(element: unknown): { display: string; color: string } };

const SECRETS = [ENV_SECRET, FILE_SECRET, "Uu3nBvSecretPath", URL_PASSWORD, HUB_TICKET, LINK_KEY];

function postEvent(): Promise<number> {
  return fetch(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-audit-client-version": "0.3.0",
      authorization: `Bearer ${ENV_SECRET}`,
    },
    body: JSON.stringify({
      schemaVersion: 1,
      eventId: randomUUID(),
      timestamp: new Date().toISOString(),
      type: "navigation.sheet.loaded",
      payload: { context: { appId: "3fa85f64-5717-4562-b3fc-2c963f66afa6" } },
    }),
  }).then((response) => response.status);
}

describe.skipIf(skip)("config UI and status page in Chromium", () => {
  it(`shows the configuration as numbered YAML lines with secrets masked and ${envRef("ENV")} unresolved`, async () => {
    const { page, bodies } = await openRecorded(`http://127.0.0.1:${ports.ui}/`);
    await page.locator("#status-tables table").first().waitFor();

    const lines = await page.locator("#yaml li").allInnerTexts();
    expect(lines[0]).toBe("Service:");
    expect(lines).toContain(`    apiToken: ${envRef("STEWARD_API_TOKEN")}`);
    expect(lines).toContain('    password: "**********"');
    expect(lines.find((line) => line.includes("remoteURL"))).toBe(
      "    remoteURL: https://**********@heartbeat.example.com/**********/**********",
    );
    expect(lines).toContain("    hub: https://sense.example.com/hub?ticket=**********");
    expect(lines.find((line) => line.includes("wiki.example.com"))?.trim()).toBe(
      "url: https://wiki.example.com/runbooks/reloads?api_key=**********",
    );
    expect(
      await page
        .locator("#yaml li >> nth=0")
        .evaluate((li) => (globalThis as unknown as WithStyles).getComputedStyle(li).display),
    ).toBe("list-item");
    expect(
      await page
        .locator("#yaml .k")
        .first()
        .evaluate((el) => (globalThis as unknown as WithStyles).getComputedStyle(el).color),
    ).not.toBe(
      await page
        .locator("#yaml .num")
        .first()
        .evaluate((el) => (globalThis as unknown as WithStyles).getComputedStyle(el).color),
    );
    // The tree: a closed section opens on a click and shows its members.
    const summary = page.locator("#tree summary", { hasText: /^mqttConfig/ });
    const mqtt = summary.locator("..");
    expect(await mqtt.getAttribute("open")).toBeNull();
    await summary.click();
    await expect
      .poll(() => mqtt.locator(".leaf", { hasText: "password" }).innerText())
      .toContain("**********");

    await page.screenshot({ path: screenshotPath("config-ui"), fullPage: true });
    const dom = await page.content();
    for (const secret of SECRETS) expect(dom).not.toContain(secret);
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    for (const body of bodies) for (const secret of SECRETS) expect(body).not.toContain(secret);
    await page.close();
  });

  it("downloads the shown YAML, masked", async () => {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    expect(download.suggestedFilename()).toBe("steward-config.yaml");
    const text = readFileSync((await download.path()) ?? "", "utf8");
    expect(text).toContain(`apiToken: ${envRef("STEWARD_API_TOKEN")}`);
    expect(text).toContain(`port: ${ports.ui}`);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    await page.close();
  });

  it("shows the listeners and moves the event numbers after audit events are posted", async () => {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${ports.ui}/`);
    const listeners = page.locator('table[data-section="Listeners"]');
    await listeners.waitFor();
    for (const name of ["Audit ingest API", "REST API", "Config UI"]) {
      await expect.poll(() => listeners.locator("tr", { hasText: name }).innerText()).toContain("listening");
    }
    const before = Number((await page.locator("#status-events").innerText()).replace(/,/g, ""));
    for (let i = 0; i < 5; i++) expect(await postEvent()).toBe(202);

    await expect
      .poll(async () => Number((await page.locator("#status-events").innerText()).replace(/,/g, "")), {
        timeout: 10_000,
      })
      .toBe(before + 5);
    const accepted = page.locator('table[data-section="Audit events"] tr', { hasText: "accepted" });
    expect(await accepted.innerText()).toContain("5");
    // None of the five carries objectData: no JSON file is written, and the page says so.
    const json = page.locator('table[data-section="Audit events"] tr', { hasText: "written to json" });
    await expect
      .poll(() => json.locator("td").nth(1).innerText(), { timeout: 10_000 })
      .toBe("0 (5 skipped: no objectData)");
    const destination = page.locator('table[data-section="Destinations"] tr', { hasText: "audit.json" });
    expect(await destination.locator("td").nth(1).innerText()).toBe("0 (5 skipped: no objectData)");
    const exported = join(dir, "audit-json");
    expect(existsSync(exported) ? readdirSync(exported) : []).toEqual([]);
    await expect.poll(() => page.locator("#status-rate").innerText(), { timeout: 10_000 }).not.toBe("–");
    expect(await page.locator("#status-chart polyline").count()).toBe(1);
    expect(await page.locator("#status-version").innerText()).toMatch(/^\d+\.\d+\.\d+$/);
    // The in-memory queue (durable: false) has no audit.queue: no queue section. The stores open.
    const stores = page.locator('table[data-section="Stores"]');
    expect(await stores.locator("td[data-label='state']").allInnerTexts()).toEqual([
      "available",
      "available",
    ]);
    expect(await stores.locator("tr.warn").count()).toBe(0);
    expect(await page.locator('[data-section="Audit queue"]').count()).toBe(0);
    expect(await page.locator("#status-alerts li").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("status"), fullPage: true });
    await page.close();
  });
});

describe.skipIf(skip)("API explorer in Chromium", () => {
  it("lists POST /api/v1/audit-event and tries GET /v4/ping with the answer 200", async () => {
    const page = await browser.context.newPage();
    const external: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(`http://127.0.0.1:${ports.rest}/`) && !request.url().startsWith("data:"))
        external.push(request.url());
    });
    await page.goto(`http://127.0.0.1:${ports.rest}/documentation`);

    const ingest = page.locator(".opblock-post", { hasText: "/api/v1/audit-event" });
    await ingest.first().waitFor({ timeout: 20_000 });
    const ping = page.locator(".opblock-get", { hasText: "/v4/ping" }).first();
    await ping.locator(".opblock-summary").first().click();
    const execute = ping.locator("button.execute");
    if ((await execute.count()) === 0) await ping.locator("button.try-out__btn").click();
    await ping.locator("button.execute").click();
    const status = ping.locator(".live-responses-table tr.response .response-col_status").first();
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).toContain("200");
    expect(
      await ping.locator(".live-responses-table tr.response .response-col_description").first().innerText(),
    ).toContain("Steward reporting for duty");
    await page.screenshot({ path: screenshotPath("api-explorer"), fullPage: false });
    expect(external).toEqual([]);
    await page.close();
  });

  it("serves the ingest API's own explorer on the ingest listener", async () => {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${ports.ingest}/documentation`);
    await page
      .locator(".opblock-post", { hasText: "/api/v1/audit-event" })
      .first()
      .waitFor({ timeout: 20_000 });
    await page.screenshot({ path: screenshotPath("ingest-explorer") });
    await page.close();
  });
});
