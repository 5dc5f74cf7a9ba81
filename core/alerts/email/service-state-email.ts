/**
 * A watched Windows service's change of state by email (`emailNotification.serviceStopped` and
 * `serviceStarted`): one email per recipient of the block, each left out when it had this
 * service's alert of that block within `rateLimit` seconds (Butler's 30). The body Steward ships,
 * HTML and text, leads with the sentence (red while the service is not running, green once it
 * runs again), then the host, the service's names, the previous and new state, the start type,
 * the executable and the time of the reading; it is built in the frame of every built-in email
 * (email-frame.ts) and is Handlebars over the service's template fields, so it renders exactly
 * like an operator's own. The subject and body are the operator's templates when configured, and
 * a plain message built without a template when one cannot be read or rendered.
 */
import type { EmailNotificationConfig } from "../../config/index.ts";
import { addressKey } from "../../shared/email-address.ts";
import { SERVICE_STATE_ALERT_KINDS, type ServiceStateAlert } from "../service-state-alert.ts";
import { type ServiceTemplateFields, serviceTemplateFields } from "../service-state-fields.ts";
import { type EmailContentResult, plainEmailBody, renderEmail } from "./email-content.ts";
import { BUTTON, emailFrame, rowsTable } from "./email-frame.ts";
import type { EmailMessages } from "./email-messages.ts";

const ROWS: readonly (readonly [label: string, value: string, field: keyof ServiceTemplateFields])[] = [
  ["Host", "{{host}}", "host"],
  ["Service", "{{serviceFriendlyName}}", "serviceFriendlyName"],
  ["Service name", "{{serviceName}}", "serviceName"],
  ["Display name", "{{serviceDisplayName}}", "serviceDisplayName"],
  ["Previous state", "{{servicePrevStatus}}", "servicePrevStatus"],
  ["New state", "{{serviceStatus}}", "serviceStatus"],
  ["Start type", "{{serviceStartType}}", "serviceStartType"],
  ["Executable", "{{serviceExePath}}", "serviceExePath"],
  ["Read at", "{{alertTime}}", "alertTime"],
];

export const SERVICE_EMAIL_HTML = emailFrame({
  title: "{{message}}",
  accent: "{{#if serviceNotRunning}}#c62828{{else}}#2e7d32{{/if}}",
  heading: "{{event}}",
  headline: "{{message}}",
  content: `${rowsTable(ROWS.map(([label, value]) => [label, value]))}
<div style="margin-top:22px">{{#if qlikSenseQMC}}<a href="{{qlikSenseQMC}}" style="${BUTTON}">Open QMC</a>{{/if}}</div>`,
  footer: "Sent by Steward's Windows service monitor at {{alertTime}}.",
});

const pad = (label: string) => `${label}:`.padEnd(16);

export const SERVICE_EMAIL_TEXT = `{{message}}

${ROWS.map(([label, value]) => `${pad(label)}${value}`).join("\n")}
{{#if qlikSenseQMC}}

QMC: {{qlikSenseQMC}}
{{/if}}`;

/** The key fields as plain lines, built without a template so that it cannot fail. */
export function servicePlainBody(fields: ServiceTemplateFields): { html: string; text: string } {
  return plainEmailBody([
    fields.message,
    "",
    ...ROWS.map(([label, , field]) => `${label}: ${String(fields[field])}`),
  ]);
}

type Settings = EmailNotificationConfig["serviceStopped"];

export const serviceStateEmail: EmailMessages<ServiceStateAlert, Settings> = {
  kinds: SERVICE_STATE_ALERT_KINDS,
  settings: (config, kind) => config[kind as ServiceStateAlert["kind"]],
  label: "Windows service alert email",
  plural: "Windows service alert emails",
  context: (alert) => ({ kind: alert.kind, host: alert.host, service: alert.service }),
  recipients: (_alert, settings) => ({ recipients: settings.recipients, refused: [], notes: [] }),
  rateKey: (alert, address) =>
    `email|${alert.kind}|${JSON.stringify([alert.host, alert.service])}|${addressKey(address)}`,
  suppressed: (settings) => `every recipient had this service's alert within ${settings.rateLimit} s`,
  content(alert, settings, body, view): EmailContentResult {
    const fields = serviceTemplateFields(alert, view.links);
    return renderEmail({
      context: fields,
      subjectTemplate: settings.subject,
      body,
      builtIn: { html: SERVICE_EMAIL_HTML, text: SERVICE_EMAIL_TEXT },
      plainSubject: fields.message,
      plainBody: () => servicePlainBody(fields),
    });
  },
};
