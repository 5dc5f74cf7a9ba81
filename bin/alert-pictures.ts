/**
 * `npm run alerts:pictures`: the built-in alert messages of a failed reload (and the server
 * licence's expiry email), photographed in
 * headless Chromium into docs/images/ for the handbook — the email's HTML body as a mail client
 * shows it, the Teams Adaptive Card drawn by the `adaptivecards` renderer (loaded from
 * node_modules, nothing fetched), and the Slack Block Kit message in a small rendering of ours.
 * Needs Debian's chromium.
 */
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import {
  chatFields,
  LICENCE_EXPIRY_KIND,
  licenceEmail,
  taskEmailContent,
  taskSlackMessage,
  taskTeamsCard,
  taskTemplateFields,
} from "../core/alerts/index.ts";
import { emailConfig, slackConfig } from "../test/helpers/alert-configs.ts";
import { failedReloadAlert, LINKS } from "../test/helpers/task-alerts.ts";
import { slackPreview } from "./slack-preview.ts";

const ROOT = join(import.meta.dirname, "..");
const IMAGES_DIR = join(ROOT, "docs", "images");
const ADAPTIVE_CARDS_JS = join(ROOT, "node_modules", "adaptivecards", "dist", "adaptivecards.min.js");

const alert = failedReloadAlert({
  taskName: "Reload Sales dashboard — nightly full load of orders, returns and forecasts",
});
const fields = taskTemplateFields(alert, LINKS, { head: 0, tail: 8 }, { timeZone: "UTC" });

async function emailPicture(page: Page): Promise<void> {
  const { content } = taskEmailContent(
    "reloadTaskFailure",
    fields,
    'Qlik Sense reload failed: "{{taskName}}"',
    undefined,
  );
  await page.setViewportSize({ width: 760, height: 600 });
  await page.setContent(content.html);
  await page.screenshot({ path: join(IMAGES_DIR, "alert-email-failed.png"), fullPage: true });
}

/** The server licence's expiry email, 12 days before the expiry. */
async function licenceEmailPicture(page: Page): Promise<void> {
  const alert = {
    kind: LICENCE_EXPIRY_KIND,
    state: "expiring",
    expiryDate: "2027-01-31",
    daysUntilExpiry: 12,
    alertDaysBefore: 30,
    text: "",
    at: "2027-01-19T06:00:00.000Z",
  } as const;
  const settings = { ...emailConfig({}).serverLicenseExpiry, subject: "{{message}}" };
  const view = { links: LINKS, hostName: "sense.example.com", version: "" };
  const { content } = licenceEmail.content(alert, settings, undefined, view);
  await page.setViewportSize({ width: 760, height: 400 });
  await page.setContent(content.html);
  await page.screenshot({ path: join(IMAGES_DIR, "alert-email-licence.png"), fullPage: true });
}

async function teamsPicture(page: Page): Promise<void> {
  const message = taskTeamsCard(chatFields(fields), `Qlik Sense reload failed: "${fields.taskName}"`, true);
  await page.setViewportSize({ width: 760, height: 600 });
  await page.setContent(`<!DOCTYPE html><html><head><meta charset="utf-8"><style>
    body{margin:0;padding:24px;background:#f5f5f5;font-family:'Segoe UI',Helvetica,Arial,sans-serif}
    .post{background:#fff;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15);max-width:700px}
    .who{padding:10px 16px 0;font-size:13px;color:#616161}.who b{color:#242424}
    .ac-pushButton{background:#fff;border:1px solid #d1d1d1;border-radius:4px;padding:6px 12px;font-weight:600;color:#242424}
  </style></head><body><div class="post"><div class="who"><b>Workflows</b> via Steward</div><div id="card"></div></div></body></html>`);
  await page.addScriptTag({ path: ADAPTIVE_CARDS_JS });
  await page.evaluate((card) => {
    // biome-ignore lint/suspicious/noExplicitAny: the library's global in the page.
    const page = globalThis as any;
    const AC = page.AdaptiveCards;
    const adaptive = new AC.AdaptiveCard();
    adaptive.hostConfig = new AC.HostConfig({
      fontFamily: "'Segoe UI', Helvetica, Arial, sans-serif",
      spacing: { small: 4, default: 8, medium: 14, large: 20, extraLarge: 28, padding: 16 },
      fontSizes: { small: 12, default: 14, medium: 16, large: 20, extraLarge: 24 },
      fontTypes: {
        default: {
          fontFamily: "'Segoe UI', Helvetica, Arial, sans-serif",
          fontSizes: { small: 12, default: 14, medium: 16, large: 20, extraLarge: 24 },
        },
        monospace: {
          fontFamily: "Consolas, 'Courier New', monospace",
          fontSizes: { small: 12, default: 13, medium: 14, large: 16, extraLarge: 18 },
        },
      },
      containerStyles: {
        default: {
          backgroundColor: "#FFFFFF",
          foregroundColors: {
            default: { default: "#242424", subtle: "#616161" },
            attention: { default: "#C4314B" },
            warning: { default: "#835C00" },
          },
        },
        emphasis: {
          backgroundColor: "#F5F5F5",
          foregroundColors: { default: { default: "#242424", subtle: "#616161" } },
        },
      },
      factSet: {
        title: { weight: "bolder", wrap: false, maxWidth: 130 },
        value: { wrap: true },
        spacing: 12,
      },
      actions: { actionsOrientation: "horizontal", buttonSpacing: 8, maxActions: 5, spacing: "default" },
    });
    adaptive.parse(card);
    const rendered = adaptive.render();
    if (rendered !== undefined) page.document.getElementById("card").appendChild(rendered);
  }, message.attachments[0]?.content);
  await page.locator(".post").screenshot({ path: join(IMAGES_DIR, "alert-teams-failed.png") });
}

async function slackPicture(page: Page): Promise<void> {
  const settings = slackConfig({}).reloadTaskFailure;
  const message = taskSlackMessage(
    chatFields(fields),
    {
      plain: `Qlik Sense reload failed: "${fields.taskName}"`,
      markup: `Qlik Sense reload failed: "${fields.taskName}"`,
    },
    settings,
  );
  await page.setViewportSize({ width: 760, height: 600 });
  await page.setContent(slackPreview(message));
  await page.locator(".message").screenshot({ path: join(IMAGES_DIR, "alert-slack-failed.png") });
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  await emailPicture(page);
  await licenceEmailPicture(page);
  await teamsPicture(page);
  await slackPicture(page);
  console.log(
    "wrote docs/images/alert-email-failed.png, alert-email-licence.png, alert-teams-failed.png, alert-slack-failed.png",
  );
} finally {
  await browser.close();
}
