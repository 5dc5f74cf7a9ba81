/**
 * A small HTML rendering of a Slack Block Kit message (header, section text and fields, code
 * blocks, context, buttons) close to how Slack's desktop client draws it, for the handbook's
 * picture. Only what Steward's messages use; mrkdwn `*bold*` and ``` blocks are drawn.
 */

type Json = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text
    .replace(/&(?!amp;|lt;|gt;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

/** Slack's mrkdwn as HTML: the text arrives with &, < and > already escaped as Slack asks. */
function mrkdwn(text: string): string {
  return text
    .split(/```/)
    .map((part, i) =>
      i % 2 === 1
        ? `<pre class="code">${part}</pre>`
        : part.replace(/\*([^*\n]+)\*/g, "<b>$1</b>").replace(/\n/g, "<br>"),
    )
    .join("");
}

function block(b: Json): string {
  const text = (b.text as Json | undefined)?.text as string | undefined;
  switch (b.type) {
    case "header":
      return `<div class="header">${escapeHtml(text ?? "")}</div>`;
    case "section": {
      const fields = (b.fields as Json[] | undefined) ?? [];
      return `<div class="section">${text === undefined ? "" : `<div>${mrkdwn(text)}</div>`}${
        fields.length === 0
          ? ""
          : `<div class="fields">${fields.map((f) => `<div>${mrkdwn(String(f.text))}</div>`).join("")}</div>`
      }</div>`;
    }
    case "context":
      return `<div class="context">${((b.elements as Json[]) ?? []).map((e) => mrkdwn(String(e.text))).join(" ")}</div>`;
    case "actions":
      return `<div class="actions">${((b.elements as Json[]) ?? []).map((e) => `<span class="button">${escapeHtml(String((e.text as Json).text))}</span>`).join("")}</div>`;
    default:
      return "";
  }
}

export function slackPreview(message: unknown): string {
  const m = message as Json;
  const blocks = ((m.blocks as Json[]) ?? []).map(block).join("");
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
  body{margin:0;padding:20px;background:#fff;font-family:Lato,'Helvetica Neue',Helvetica,Arial,sans-serif;color:#1d1c1d;font-size:15px;line-height:1.47}
  .message{display:flex;gap:10px;max-width:700px;padding:8px 12px}
  .icon{width:36px;height:36px;border-radius:6px;background:#4a154b;color:#fff;font-weight:900;font-size:20px;text-align:center;line-height:36px;flex:none}
  .who{font-weight:900}.app{font-size:11px;background:#e8e8e8;color:#616061;border-radius:3px;padding:1px 4px;margin-left:4px;font-weight:700}
  .channel{color:#616061;font-size:13px;margin-left:6px}
  .header{font-size:18px;font-weight:900;margin:6px 0 4px;word-break:break-word}
  .section{margin:8px 0}.fields{display:grid;grid-template-columns:1fr 1fr;gap:8px 16px;margin-top:4px;word-break:break-word}
  .code{margin:4px 0;padding:8px;background:#f8f8f8;border:1px solid #dddddd;border-radius:4px;font-family:Monaco,Menlo,Consolas,'Courier New',monospace;font-size:12px;line-height:1.5;white-space:pre-wrap;word-break:break-all}
  .context{font-size:13px;color:#616061}
  .actions{margin-top:8px}.button{display:inline-block;border:1px solid #c7c7c7;border-radius:4px;padding:3px 12px;font-weight:700;font-size:14px;margin-right:8px}
  </style></head><body><div class="message"><div class="icon">Q</div><div>
  <div><span class="who">${escapeHtml(String(m.username ?? "Steward"))}</span><span class="app">APP</span><span class="channel">#${escapeHtml(String(m.channel ?? ""))}</span></div>
  ${blocks}</div></div></body></html>`;
}
