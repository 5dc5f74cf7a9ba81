/**
 * The frame every email body Steward ships is built in, whatever the alert's kind (task-email.ts,
 * licence-email.ts): a header band in the colour of what happened, a 640-pixel column that wraps
 * long names, rows of labels and values, blocks of log text, buttons, and a footer. HTML email
 * clients ignore style sheets, so the layout is tables with inline styles. The parts are
 * Handlebars text, so a built-in body renders exactly like an operator's own template.
 */

export const CELL_LABEL =
  "padding:6px 12px 6px 0;color:#5f6b7a;font-size:13px;white-space:nowrap;vertical-align:top;width:130px";
export const CELL_VALUE =
  "padding:6px 0;color:#1f2933;font-size:14px;word-break:break-word;vertical-align:top";
const LOG_BLOCK =
  "margin:0;padding:12px;background:#f4f6f8;border:1px solid #dde2e8;border-radius:4px;font-family:Consolas,'Courier New',monospace;font-size:12px;line-height:1.45;color:#1f2933;white-space:pre-wrap;overflow-wrap:anywhere";
export const BUTTON =
  "display:inline-block;margin:0 8px 8px 0;padding:9px 16px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:4px;font-size:14px";

const row = (label: string, value: string) =>
  `<tr><td style="${CELL_LABEL}">${label}</td><td style="${CELL_VALUE}">${value}</td></tr>`;

/** The body's table of labels and values, one row per pair, in order. */
export const rowsTable = (rows: readonly (readonly [label: string, value: string])[]) =>
  `<table role="presentation" width="100%" cellspacing="0" cellpadding="0">
${rows.map(([label, value]) => row(label, value)).join("\n")}
</table>`;

export const logSection = (title: string, countField: string, textField: string) =>
  `{{#if ${textField}}}<h3 style="margin:20px 0 8px;font-size:15px;color:#1f2933">${title}{{#if ${countField}}} ({{${countField}}} lines){{/if}}</h3>
<pre style="${LOG_BLOCK}">{{${textField}}}</pre>{{/if}}`;

/** What an email body's frame holds; each part is Handlebars text. */
export interface EmailFrame {
  /** The document's title. */
  readonly title: string;
  /** The header band's colour. */
  readonly accent: string;
  /** The small capitals over the headline: what happened. */
  readonly heading: string;
  readonly headline: string;
  /** The rows, blocks and buttons between the header and the footer. */
  readonly content: string;
  readonly footer: string;
}

/** The frame every built-in email (reload tasks, the server licence) shares: header band, a 640-pixel column, footer. */
export function emailFrame(frame: EmailFrame): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${frame.title}</title></head>
<body style="margin:0;padding:0;background:#eef1f4;font-family:'Segoe UI',Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#eef1f4;padding:24px 0"><tr><td align="center">
<table role="presentation" width="640" cellspacing="0" cellpadding="0" style="max-width:640px;width:100%;background:#ffffff;border-radius:6px;overflow:hidden;border:1px solid #dde2e8">
<tr><td style="background:${frame.accent};padding:18px 24px;color:#ffffff">
<div style="font-size:13px;letter-spacing:0.04em;text-transform:uppercase;opacity:0.9">${frame.heading}</div>
<div style="font-size:20px;font-weight:600;margin-top:4px;word-break:break-word">${frame.headline}</div>
</td></tr>
<tr><td style="padding:20px 24px">
${frame.content}
</td></tr>
<tr><td style="padding:12px 24px;background:#f7f9fa;color:#8a94a1;font-size:12px">${frame.footer}</td></tr>
</table>
</td></tr></table>
</body></html>
`;
}
