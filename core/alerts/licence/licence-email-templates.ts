/**
 * The email body Steward ships for the server licence's expiry, HTML and text: the sentence as
 * the heading (red once expired, amber before), the expiry date, the days left, the alert window
 * and the server, and links to the management console and the hub. It is built from the task
 * alerts' frame, rows and buttons (email-built-in-templates.ts: tables and inline styles, which
 * email clients keep), and is Handlebars over the licence's template fields, so it renders
 * exactly like an operator's own.
 */
import { BUTTON, emailFrame, row } from "../email-built-in-templates.ts";

export const LICENCE_EMAIL_HTML = emailFrame({
  title: "{{message}}",
  accent: "{{#if licenseExpired}}#c62828{{else}}#b45f06{{/if}}",
  heading: "{{#if licenseExpired}}Server licence expired{{else}}Server licence expires soon{{/if}}",
  headline: "{{message}}",
  content: `<table role="presentation" width="100%" cellspacing="0" cellpadding="0">
${row("Expiry date", "{{expiryDate}}")}
${row("Days until expiry", "{{daysUntilExpiry}}")}
${row("Alert window", "{{alertDaysBefore}} days before the expiry")}
${row("Server", "{{hostName}}")}
</table>
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
