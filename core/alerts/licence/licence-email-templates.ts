/**
 * The email body Steward ships for the server licence's expiry, HTML and text: the sentence as
 * the heading (red once expired, amber before), the expiry date, the days left, the alert window
 * and the server, and links to the management console and the hub. The same table layout and
 * inline styles as the task alerts' built-in body (email clients ignore style sheets), and
 * Handlebars over the licence's template fields, so it renders exactly like an operator's own.
 */
import { BUTTON, row } from "../email-built-in-templates.ts";

export const LICENCE_EMAIL_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{message}}</title></head>
<body style="margin:0;padding:0;background:#eef1f4;font-family:'Segoe UI',Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#eef1f4;padding:24px 0"><tr><td align="center">
<table role="presentation" width="640" cellspacing="0" cellpadding="0" style="max-width:640px;width:100%;background:#ffffff;border-radius:6px;overflow:hidden;border:1px solid #dde2e8">
<tr><td style="background:{{#if licenseExpired}}#c62828{{else}}#b45f06{{/if}};padding:18px 24px;color:#ffffff">
<div style="font-size:13px;letter-spacing:0.04em;text-transform:uppercase;opacity:0.9">{{#if licenseExpired}}Server licence expired{{else}}Server licence expires soon{{/if}}</div>
<div style="font-size:20px;font-weight:600;margin-top:4px;word-break:break-word">{{message}}</div>
</td></tr>
<tr><td style="padding:20px 24px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0">
${row("Expiry date", "{{expiryDate}}")}
${row("Days until expiry", "{{daysUntilExpiry}}")}
${row("Alert window", "{{alertDaysBefore}} days before the expiry")}
${row("Server", "{{hostName}}")}
</table>
<p style="margin:18px 0 0;color:#1f2933;font-size:14px">Renew the licence in the management console (Licenses, Site license) before the expiry date.</p>
<div style="margin-top:22px">{{#if qlikSenseQMC}}<a href="{{qlikSenseQMC}}" style="${BUTTON}">Open QMC</a>{{/if}}{{#if qlikSenseHub}}<a href="{{qlikSenseHub}}" style="${BUTTON}">Open Hub</a>{{/if}}</div>
</td></tr>
<tr><td style="padding:12px 24px;background:#f7f9fa;color:#8a94a1;font-size:12px">Sent by Steward's licence monitor at {{alertTime}}.</td></tr>
</table>
</td></tr></table>
</body></html>
`;

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
