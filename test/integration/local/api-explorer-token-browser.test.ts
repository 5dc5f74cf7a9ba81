/**
 * The REST API's explorer as a person sees it when the API has a token: `steward start` with
 * `restServer.apiToken` set and Debian's Chromium. The page loads without the token but shows no
 * endpoint; it asks for the token, says so when one is refused, and with the right one lists the
 * endpoints and tries GET /v4/ping with the answer 200. Screenshots of the last run are kept
 * under test/artifacts/.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium, screenshotPath, skipWithoutChromium } from "../../helpers/chromium.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const skip = skipWithoutChromium();
const TOKEN = "rest-token-Vb81sQ";

let dir: string;
let proc: StewardProcess;
let browser: Browser;
let rest: number;

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "steward-explorer-"));
  rest = await freePort();
  writeFileSync(
    join(dir, "steward.yaml"),
    [
      "Service:",
      "  auditEvents:",
      "    enable: false",
      "  restServer:",
      `    port: ${rest}`,
      `    apiToken: ${TOKEN}`,
      "",
    ].join("\n"),
  );
  proc = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
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

describe.skipIf(skip)("API explorer of a REST API with a token, in Chromium", () => {
  it("asks for the token, refuses a wrong one, and with the right one lists the endpoints and tries GET /v4/ping", async () => {
    const page = await browser.context.newPage();
    const documentAnswers: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("/documentation/json")) documentAnswers.push(response.status());
    });
    await page.goto(`http://127.0.0.1:${rest}/documentation`);

    const form = page.locator("#token-form");
    await form.waitFor({ timeout: 20_000 });
    expect(await form.innerText()).toContain("restServer.apiToken");
    expect(await page.locator(".opblock").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("api-explorer-token"), fullPage: false });

    await page.fill("#token", "not-the-token");
    await page.click("#token-form button");
    await expect.poll(() => page.locator("#token-message").innerText()).toContain("refused");

    await page.fill("#token", TOKEN);
    await page.click("#token-form button");
    const ping = page.locator(".opblock-get", { hasText: "/v4/ping" }).first();
    await ping.waitFor({ timeout: 20_000 });
    expect(await page.locator("#token-form").count()).toBe(0);
    await ping.locator(".opblock-summary").first().click();
    const execute = ping.locator("button.execute");
    if ((await execute.count()) === 0) await ping.locator("button.try-out__btn").click();
    await ping.locator("button.execute").click();
    const status = ping.locator(".live-responses-table tr.response .response-col_status").first();
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).toContain("200");
    await page.screenshot({ path: screenshotPath("api-explorer-authorized"), fullPage: false });

    expect(documentAnswers.slice(0, 2)).toEqual([401, 401]);
    expect(documentAnswers).toContain(200);
    // The token, once accepted, shows as authorized in Swagger UI's own Authorize box.
    expect(await page.locator("button.authorize.locked").count()).toBe(1);
    await page.close();
  });
});
