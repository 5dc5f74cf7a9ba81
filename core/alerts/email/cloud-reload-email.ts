/**
 * The Qlik Cloud reload alerts by email, under the site's switches: a failed cloud reload is sent
 * when `emailNotification.reloadTaskFailure` is on, a canceled one when `reloadTaskAborted` is,
 * to that block's `recipients` (the site's tag and custom-property filters do not apply: a cloud
 * app has neither), with its subject template, body template and line counts of the script log.
 * One email per recipient per tenant and app within `rateLimit` seconds. The built-in body leads
 * with the tenant and the app, then the space, owner, who reloaded, status, error, times, the
 * script log's head and tail, what a lookup could not tell, and links to the app and the tenant.
 */
import type { EmailNotificationConfig } from "../../config/index.ts";
import { addressKey } from "../../shared/email-address.ts";
import {
  CLOUD_RELOAD_ALERT_KINDS,
  CLOUD_RELOAD_BLOCKS,
  type CloudReloadAlert,
} from "../cloud-reload-alert.ts";
import { type CloudReloadTemplateFields, cloudReloadTemplateFields } from "../cloud-reload-fields.ts";
import { type EmailContentResult, oneLine, plainEmailBody, renderEmail } from "./email-content.ts";
import { BUTTON, emailFrame, logSection, rowsTable } from "./email-frame.ts";
import type { EmailMessages } from "./email-messages.ts";

export const CLOUD_RELOAD_EMAIL_HTML = emailFrame({
  title: "{{heading}}: {{appName}}",
  accent: '{{#if (eq alertKind "qlikCloudReloadFailure")}}#c62828{{else}}#b45f06{{/if}}',
  heading: "{{heading}}",
  headline: "{{appName}}",
  content: `${rowsTable([
    ["Tenant", '<a href="{{tenantUrl}}" style="color:#1f6feb">{{tenantName}}</a>'],
    ["App", '<a href="{{appUrl}}" style="color:#1f6feb">{{appName}}</a>'],
    ["Space", "{{spaceName}}"],
    ["Owner", "{{appOwnerName}}"],
    ["Reloaded by", "{{reloadedBy}}"],
    ["Trigger", "{{trigger}}"],
    ["Status", "{{status}}"],
    ["Error", "{{errorCode}}: {{errorMessage}}"],
    ["Started (UTC)", "{{startTime}}"],
    ["Ended (UTC)", "{{endTime}}"],
    ["Reload id", '<span style="font-family:Consolas,monospace;font-size:12px">{{reloadId}}</span>'],
  ])}
${logSection("Start of the script log", "scriptLogHeadCount", "scriptLogHead")}
${logSection("End of the script log", "scriptLogTailCount", "scriptLogTail")}
{{#each unavailable}}{{#if @first}}<h3 style="margin:20px 0 8px;font-size:15px;color:#1f2933">Not available</h3><ul style="margin:0;padding-left:20px;color:#5f6b7a;font-size:13px">{{/if}}<li>{{@key}}: {{this}}</li>{{#if @last}}</ul>{{/if}}{{/each}}
<div style="margin-top:22px"><a href="{{appUrl}}" style="${BUTTON}">Open app</a><a href="{{tenantUrl}}" style="${BUTTON}">Open tenant</a></div>`,
  footer: "Sent by Steward from Qlik Cloud tenant {{tenantName}}.",
});

export const CLOUD_RELOAD_EMAIL_TEXT = `{{heading}}: {{appName}}

Tenant:       {{tenantName}} ({{tenantUrl}})
App:          {{appName}} ({{appId}})
Space:        {{spaceName}}
Owner:        {{appOwnerName}}
Reloaded by:  {{reloadedBy}}
Trigger:      {{trigger}}
Status:       {{status}}
Error:        {{errorCode}}: {{errorMessage}}
Started:      {{startTime}} (UTC)
Ended:        {{endTime}} (UTC)
Reload id:    {{reloadId}}
{{#if scriptLogHead}}
--- Start of the script log ---
{{scriptLogHead}}
{{/if}}{{#if scriptLogTail}}
--- End of the script log ---
{{scriptLogTail}}
{{/if}}{{#each unavailable}}{{#if @first}}
Not available:
{{/if}}  {{@key}}: {{this}}
{{/each}}
App: {{appUrl}}
`;

/** The key fields as plain lines, built without a template so that it cannot fail. */
export function cloudReloadPlainBody(fields: CloudReloadTemplateFields): { html: string; text: string } {
  return plainEmailBody([
    `${fields.heading}: ${fields.appName}`,
    "",
    `Tenant: ${fields.tenantName} (${fields.tenantUrl})`,
    `App: ${fields.appName} (${fields.appId})`,
    `Status: ${fields.status}`,
    `Error: ${fields.errorCode}: ${fields.errorMessage}`,
    `Reload id: ${fields.reloadId}`,
    `App: ${fields.appUrl}`,
  ]);
}

type Settings = EmailNotificationConfig["reloadTaskFailure"];

export const cloudReloadEmail: EmailMessages<CloudReloadAlert, Settings> = {
  kinds: CLOUD_RELOAD_ALERT_KINDS,
  settings: (config, kind) => config[CLOUD_RELOAD_BLOCKS[kind as CloudReloadAlert["kind"]]],
  label: "Qlik Cloud alert email",
  plural: "Qlik Cloud alert emails",
  context: (alert) => ({ kind: alert.kind, tenant: alert.tenant.name, appId: alert.run.appId }),
  recipients: (_alert, settings) => ({ recipients: settings.recipients, refused: [], notes: [] }),
  rateKey: (alert, address) => `cloud|${alert.tenant.name}|${alert.run.appId}|${addressKey(address)}`,
  suppressed: (settings) => `every recipient had this app's alert within ${settings.rateLimit} s`,
  content(alert, settings, body): EmailContentResult {
    const fields = cloudReloadTemplateFields(alert, {
      head: settings.headScriptLogLines,
      tail: settings.tailScriptLogLines,
    });
    return renderEmail({
      context: fields,
      subjectTemplate: settings.subject,
      body,
      builtIn: { html: CLOUD_RELOAD_EMAIL_HTML, text: CLOUD_RELOAD_EMAIL_TEXT },
      plainSubject: oneLine(`${fields.heading}: "${fields.taskName}"`),
      plainBody: () => cloudReloadPlainBody(fields),
    });
  },
};
