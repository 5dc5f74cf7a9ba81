/**
 * What a person sees of a stopped Windows service's alert: the built-in email's HTML and the
 * Teams card, rendered by Debian's Chromium (the card by the Adaptive Cards renderer Teams uses,
 * loaded into the page) and photographed under test/artifacts/. The email shows the red band with
 * the sentence and every row; the card its title in the attention colour and its facts.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AlertChannelDeps,
  buildAlertDestinations,
  createAlertDispatcher,
  type OutgoingEmail,
} from "../../../../core/alerts/index.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import {
  type Browser,
  launchChromium,
  screenshotPath,
  skipWithoutChromium,
} from "../../../helpers/chromium.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { STOPPED } from "../../../helpers/service-state-alerts.ts";

const skip = skipWithoutChromium();

/** What the page's code uses of the browser (the tests are typed without the DOM's declarations). */
type PageGlobals = {
  getComputedStyle(element: unknown): { backgroundColor: string };
  document: { getElementById(id: string): { appendChild(child: unknown): void } | null };
  AdaptiveCards: {
    AdaptiveCard: new () => { parse(json: unknown): void; render(): { innerText: string } };
  };
};
const ADAPTIVE_CARDS = createRequire(import.meta.url).resolve("adaptivecards/dist/adaptivecards.js");

/** The email and the Teams message the channels make of the stopped service. */
async function messages(): Promise<{ email: OutgoingEmail; card: unknown }> {
  const parsed = parseConfig({
    Service: {
      emailNotification: {
        enable: true,
        smtp: { host: "smtp.example.com" },
        serviceStopped: { enable: true, fromAddress: "steward@example.com", recipients: ["ops@example.com"] },
      },
      teamsNotification: {
        enable: true,
        serviceStopped: { enable: true, webhookURL: "https://t.example.com/w" },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const emails: OutgoingEmail[] = [];
  const posts: unknown[] = [];
  const deps: AlertChannelDeps = {
    logger: recordingLogger(),
    clients: {
      email: { send: async (email: OutgoingEmail) => void emails.push(email), close() {} },
      chat: { post: async (_url: string, body: unknown) => void posts.push(body) },
      webhook: { call: async () => undefined },
    },
    readTemplate: async () => "",
    view: {
      links: {
        qlikSenseUrls: { qmc: "https://sense1.example.com/qmc", hub: "", appBaseUrl: "" },
        genericUrls: [],
      },
      hostName: "",
      version: "test",
    },
  };
  const dispatcher = createAlertDispatcher({
    destinations: buildAlertDestinations(parsed.config, deps),
    clock: createManualClock(0),
    logger: deps.logger,
    metrics: createMemoryMetricsRegistry(),
  });
  await dispatcher.dispatch(STOPPED);
  const message = posts[0] as { attachments: { content: unknown }[] };
  return { email: emails[0] as OutgoingEmail, card: message.attachments[0]?.content };
}

describe.skipIf(skip)("a stopped Windows service's alert, rendered", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("the email: a red band with the sentence, then the host, names, states and start type", async () => {
    const { email } = await messages();
    const page = await browser.context.newPage();

    await page.setContent(String(email.html));
    await page.screenshot({ path: screenshotPath("service-stopped-email"), fullPage: true });

    const sentence = page.getByText("Windows service Repository stopped on sense1.example.com (was RUNNING)");
    expect(await sentence.first().isVisible()).toBe(true);
    for (const text of [
      "sense1.example.com",
      "QlikSenseRepositoryService",
      "Qlik Sense Repository Service",
      "STOPPED",
      "Automatic",
    ])
      expect(await page.getByText(text, { exact: true }).count()).toBeGreaterThan(0);
    const band = page.locator("td", { hasText: "Windows service stopped" }).last();
    expect(
      await band.evaluate(
        (cell) => (globalThis as unknown as PageGlobals).getComputedStyle(cell).backgroundColor,
      ),
    ).toBe("rgb(198, 40, 40)");
    await page.close();
  });

  it("the Teams card: the title in the attention colour and the facts", async () => {
    const { card } = await messages();
    const page = await browser.context.newPage();
    await page.setContent(
      '<html><body style="width:640px;font-family:sans-serif"><div id="card"></div></body></html>',
    );
    await page.addScriptTag({ path: ADAPTIVE_CARDS });

    const rendered = await page.evaluate((json) => {
      const page = globalThis as unknown as PageGlobals;
      const adaptive = new page.AdaptiveCards.AdaptiveCard();
      adaptive.parse(json);
      const element = adaptive.render();
      page.document.getElementById("card")?.appendChild(element);
      return element.innerText;
    }, card);
    await page.screenshot({ path: screenshotPath("service-stopped-teams-card"), fullPage: true });

    expect(rendered).toContain(
      'Windows service stopped: "QlikSenseRepositoryService" on host "sense1.example.com"',
    );
    for (const text of [
      "Host",
      "sense1.example.com",
      "Repository (QlikSenseRepositoryService)",
      "RUNNING → STOPPED",
      "Open QMC",
    ])
      expect(rendered).toContain(text);
    await page.close();
  });
});
