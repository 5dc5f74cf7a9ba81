/**
 * What the server licence's alert says: the sentence every destination leads with, the template
 * fields, the email (built-in body, the operator's templates, the plain fallback), the Teams card
 * and the Slack message, and the webhook payloads under Butler's names.
 */
import { describe, expect, it } from "vitest";
import { licenceSlackMessage, licenceTeamsCard } from "../../../../core/alerts/chat/licence-chat.ts";
import type { BodyTemplate } from "../../../../core/alerts/email/email-content.ts";
import { licenceEmail } from "../../../../core/alerts/email/licence-email.ts";
import { LICENCE_STATUS_KIND, type LicenceExpiryAlert } from "../../../../core/alerts/licence-alert.ts";
import { licenceSentence, licenceTemplateFields } from "../../../../core/alerts/licence-fields.ts";
import {
  licenceAlertPayload,
  licenceStatusPayload,
} from "../../../../core/alerts/webhook/licence-webhook.ts";
import { emailConfig } from "../../../helpers/alert-configs.ts";
import { expiringLicence } from "../../../helpers/licence-alerts.ts";

const EXPIRING: LicenceExpiryAlert = expiringLicence();
const EXPIRED: LicenceExpiryAlert = { ...EXPIRING, state: "expired", daysUntilExpiry: -3 };
const LINKS = {
  qlikSenseUrls: { qmc: "https://sense.example.com/qmc", hub: "", appBaseUrl: "" },
  genericUrls: [],
};
const fields = (alert: LicenceExpiryAlert) => licenceTemplateFields(alert, LINKS, "sense.example.com");
/** The licence email of `alert` with the subject template `subject` and the body template `body`. */
const licenceEmailContent = (alert: LicenceExpiryAlert, subject: string, body: BodyTemplate) =>
  licenceEmail.content(alert, { ...emailConfig({}).serverLicenseExpiry, subject }, body, {
    links: LINKS,
    hostName: "sense.example.com",
    version: "test",
  });

describe("the licence alert's sentence", () => {
  it("says the days left and the date before the expiry, and the date after it", () => {
    expect(licenceSentence(EXPIRING)).toBe("Qlik Sense server licence expires in 12 days, on 2027-01-31");
    expect(licenceSentence({ ...EXPIRING, daysUntilExpiry: 1 })).toBe(
      "Qlik Sense server licence expires in 1 day, on 2027-01-31",
    );
    expect(licenceSentence({ ...EXPIRING, daysUntilExpiry: 0 })).toBe(
      "Qlik Sense server licence expires today, 2027-01-31",
    );
    expect(licenceSentence(EXPIRED)).toBe("Qlik Sense server licence expired on 2027-01-31");
    expect(licenceSentence({ ...EXPIRED, expiryDate: undefined })).toBe(
      "Qlik Sense server licence has expired",
    );
  });
});

describe("the licence webhooks' payloads", () => {
  it("carry Butler's event texts and fields, with the days signed after the expiry", () => {
    expect(licenceAlertPayload(EXPIRING)).toEqual({
      event: "server license about to expire alert",
      licenseExpired: false,
      expiryDateStr: "2027-01-31",
      daysUntilExpiry: 12,
    });
    expect(licenceAlertPayload(EXPIRED)).toEqual({
      event: "server license has expired alert",
      licenseExpired: true,
      expiryDateStr: "2027-01-31",
      daysUntilExpiry: -3,
    });
    const status = {
      kind: LICENCE_STATUS_KIND,
      expired: false,
      expiryDate: undefined,
      daysUntilExpiry: undefined,
      at: EXPIRING.at,
    } as const;
    expect(licenceStatusPayload(status)).toEqual({
      event: "server license status",
      licenseExpired: false,
      expiryDateStr: null,
      daysUntilExpiry: null,
    });
    expect(
      licenceStatusPayload({ ...status, expiryDate: "2027-01-31", daysUntilExpiry: -1 }).licenseExpired,
    ).toBe(true);
  });
});

describe("the licence alert email", () => {
  it("has the sentence as the default subject and a built-in body with the date, the days and the links", () => {
    const { content, problems } = licenceEmailContent(EXPIRING, "{{message}}", undefined);
    expect(problems).toEqual([]);
    expect(content.subject).toBe("Qlik Sense server licence expires in 12 days, on 2027-01-31");
    expect(content.html).toContain("Server licence expires soon");
    expect(content.html).toContain("2027-01-31");
    expect(content.html).toContain('href="https://sense.example.com/qmc"');
    expect(content.html).not.toContain("Open Hub");
    expect(content.text).toMatch(/^Days until expiry: 12$/m);
    expect(content.text).toMatch(/^Server: +sense\.example\.com$/m);
  });

  it("renders the operator's subject and body templates with the licence fields", () => {
    const body = { source: "<p>{{hostName}}: {{expiryDateStr}} ({{daysUntilExpiry}}, {{event}})</p>" };
    const { content } = licenceEmailContent(
      EXPIRED,
      "{{#if licenseExpired}}EXPIRED{{else}}soon{{/if}} {{expiryDate}}",
      body,
    );
    expect(content.subject).toBe("EXPIRED 2027-01-31");
    expect(content.html).toBe("<p>sense.example.com: 2027-01-31 (-3, server license has expired alert)</p>");
  });

  it("sends the plain message, and says why, when a template cannot be rendered or read", () => {
    const broken = licenceEmailContent(EXPIRING, "{{#each}}", { source: "{{#if}}" });
    expect(broken.content.subject).toBe("Qlik Sense server licence expires in 12 days, on 2027-01-31");
    expect(broken.content.text).toContain("Expiry date: 2027-01-31");
    expect(broken.problems).toHaveLength(2);
    const unread = licenceEmailContent(EXPIRING, "{{message}}", { error: "template file not found" });
    expect(unread.content.html).toContain("Days until expiry: 12");
    expect(unread.problems).toEqual(["body: template file not found"]);
  });
});

describe("the licence alert in Teams and Slack", () => {
  it("is an Adaptive Card with the title, the facts and the configured links", () => {
    const message = licenceTeamsCard(fields(EXPIRED), {
      plain: "Licence expired",
      markup: "Licence expired",
    });
    const card = message.attachments[0]?.content as Record<string, unknown>;
    expect(message.attachments[0]?.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.body).toEqual([
      expect.objectContaining({ type: "TextBlock", text: "Licence expired", color: "Attention" }),
      {
        type: "FactSet",
        facts: [
          { title: "Expiry date", value: "2027-01-31" },
          { title: "Days until expiry", value: "-3" },
          { title: "Alert window", value: "30 days" },
          { title: "Server", value: "sense.example.com" },
        ],
      },
    ]);
    expect(card.actions).toEqual([
      { type: "Action.OpenUrl", title: "Open QMC", url: "https://sense.example.com/qmc" },
    ]);
  });

  it("is a Block Kit message with the poster settings, a header and the facts", () => {
    const message = licenceSlackMessage(
      fields(EXPIRING),
      { plain: "Licence soon", markup: "Licence soon" },
      {
        channel: "ops",
        fromUser: "Qlik Sense",
        iconEmoji: "",
      },
    ) as { channel: string; username: string; text: string; blocks: { type: string }[] };
    expect(message.channel).toBe("ops");
    expect(message.username).toBe("Qlik Sense");
    expect(message.text).toBe("Licence soon");
    expect(message.blocks.map((block) => block.type)).toEqual(["header", "section", "actions"]);
    expect(JSON.stringify(message.blocks[1])).toContain("*Days until expiry*\\n12");
  });
});
