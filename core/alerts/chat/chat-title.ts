/**
 * The title of a chat alert (Teams, Slack; task and licence alerts alike), rendered from the
 * operator's `basicMsgTemplate` twice: with the fields as they are, for places that show plain
 * text (Slack's header), and with the fields escaped for the channel's markup (chat-markup.ts),
 * for places that render it (a card's text, Slack's notification text). The template's own text
 * is kept as written in both, so markup the operator wrote (`**{{taskName}}**`, `<!channel>`)
 * still works, while markup inside a task's name does not. A template that renders empty, or
 * cannot be rendered, gives way to `fallback` (the caller logs why).
 */
import { renderAlertTemplate } from "../alert-template.ts";
import { escapedFields } from "./chat-markup.ts";

export interface ChatTitle {
  /** With the fields as they are: for plain-text places. */
  readonly plain: string;
  /** With the fields escaped for the channel's markup. */
  readonly markup: string;
}

/** Throws AlertTemplateError when the template cannot be rendered. */
export function renderChatTitle<F extends object>(
  template: string,
  fields: F,
  escapeText: (text: string) => string,
  fallback: (fields: F) => string,
): ChatTitle {
  const render = (shown: F) =>
    renderAlertTemplate(template, shown, { noEscape: true }).trim() || fallback(shown);
  return { plain: render(fields), markup: render(escapedFields(fields, escapeText)) };
}

/** `fallback` alone, when the template cannot be used. */
export function fallbackChatTitle<F extends object>(
  fields: F,
  escapeText: (text: string) => string,
  fallback: (fields: F) => string,
): ChatTitle {
  return { plain: fallback(fields), markup: fallback(escapedFields(fields, escapeText)) };
}
