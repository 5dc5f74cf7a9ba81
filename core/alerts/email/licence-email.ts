/**
 * The server licence's expiry by email (`emailNotification.serverLicenseExpiry`): one email per
 * recipient of `recipients`, each left out when it had the licence alert within `rateLimit`
 * seconds (one a day by default: the monitor runs every 6 hours). The body Steward ships, HTML
 * and text, leads with the sentence (red once expired, amber before), then the expiry date, the
 * days left, the alert window and the server, and links to the management console and the hub;
 * it is built in the frame of every built-in email (email-frame.ts) and is Handlebars over the
 * licence's template fields, so it renders exactly like an operator's own. The subject and body
 * are the operator's templates when configured, and a plain message built without a template
 * when one cannot be read or rendered, so the alert always goes out.
 */
import type { EmailNotificationConfig } from "../../config/index.ts";
import { addressKey } from "../../shared/email-address.ts";
import type { LicenceExpiryAlert } from "../licence-alert.ts";
import { LICENCE_EXPIRY_KIND } from "../licence-alert.ts";
import { type LicenceTemplateFields, licenceTemplateFields } from "../licence-fields.ts";
import { type EmailContentResult, plainEmailBody, renderEmail } from "./email-content.ts";
import { BUTTON, emailFrame, rowsTable } from "./email-frame.ts";
import type { EmailMessages } from "./email-messages.ts";

export const LICENCE_EMAIL_HTML = emailFrame({
  title: "{{message}}",
  accent: "{{#if licenseExpired}}#c62828{{else}}#b45f06{{/if}}",
  heading: "{{#if licenseExpired}}Server licence expired{{else}}Server licence expires soon{{/if}}",
  headline: "{{message}}",
  content: `${rowsTable([
    ["Expiry date", "{{expiryDate}}"],
    ["Days until expiry", "{{daysUntilExpiry}}"],
    ["Alert window", "{{alertDaysBefore}} days before the expiry"],
    ["Server", "{{hostName}}"],
  ])}
<p style="margin:18px 0 0;color:#1f2933;font-size:14px">Renew the licence in the management console (Licenses, Site license) before the expiry date.</p>
<div style="margin-top:22px">{{#if qlikSenseQMC}}<a href="{{qlikSenseQMC}}" style="${BUTTON}">Open QMC</a>{{/if}}{{#if qlikSenseHub}}<a href="{{qlikSenseHub}}" style="${BUTTON}">Open Hub</a>{{/if}}</div>`,
  footer: "Sent by Steward's licence monitor at {{alertTime}}.",
});

export const LICENCE_EMAIL_TEXT = `{{message}}

Expiry date:       {{expiryDate}}
Days until expiry: {{daysUntilExpiry}}
Alert window:      {{alertDaysBefore}} days before the expiry
Server:            {{hostName}}

Renew the licence in the management console (Licenses, Site license) before the expiry date.
{{#if qlikSenseQMC}}
QMC: {{qlikSenseQMC}}
{{/if}}{{#if qlikSenseHub}}Hub: {{qlikSenseHub}}
{{/if}}`;

export function licencePlainBody(fields: LicenceTemplateFields): { html: string; text: string } {
  const lines = [
    fields.message,
    "",
    `Expiry date: ${fields.expiryDate}`,
    `Days until expiry: ${fields.daysUntilExpiry}`,
    `Server: ${fields.hostName}`,
    ...(fields.qlikSenseQMC === "" ? [] : ["", `QMC: ${fields.qlikSenseQMC}`]),
  ];
  return plainEmailBody(lines);
}

type Settings = EmailNotificationConfig["serverLicenseExpiry"];

export const licenceEmail: EmailMessages<LicenceExpiryAlert, Settings> = {
  kinds: [LICENCE_EXPIRY_KIND],
  settings: (config) => config.serverLicenseExpiry,
  label: "Licence alert email",
  plural: "licence alert emails",
  context: () => ({}),
  recipients: (_alert, settings) => ({ recipients: settings.recipients, refused: [], notes: [] }),
  rateKey: (_alert, address) => `email|license-alert|${addressKey(address)}`,
  suppressed: (settings) => `every recipient had the licence alert within ${settings.rateLimit} s`,
  content(alert, settings, body, view): EmailContentResult {
    const fields = licenceTemplateFields(alert, view.links, view.hostName);
    return renderEmail({
      context: fields,
      subjectTemplate: settings.subject,
      body,
      builtIn: { html: LICENCE_EMAIL_HTML, text: LICENCE_EMAIL_TEXT },
      plainSubject: fields.message,
      plainBody: () => licencePlainBody(fields),
    });
  },
};
