/**
 * Escaping of data (task and app names, datagram text, log lines, error reasons) for the markup
 * of the chat services, so that a name can never become a link, a mention or formatting in the
 * channel. A task event's datagram carries text its sender chose, and names are set by whoever
 * may edit a task; `[Reset your password](https://…)` must arrive as those characters.
 *
 * Teams (Adaptive Card TextBlock text, FactSet titles and values) renders a subset of CommonMark:
 * `**bold**`, `*italic*` / `_italic_`, lists (a line starting `- `, `* `, `+ ` or `1. `) and links
 * `[title](url)`; headings, quotes, code, strike-through, tables, images and HTML are shown as
 * written. Exactly what renders is escaped, with CommonMark's backslash: `\`, `*`, `_`, `[` and
 * `]` everywhere (with both brackets escaped no link can form, so `(` and `)` stay as they are), and
 * the marker of a list at the start of a line; nothing else, so that text where nothing would
 * render reads as it was written. A bare URL is still made clickable by Teams, but it then shows
 * its real address, never a title in its place.
 *
 * Slack (mrkdwn) gives `&`, `<` and `>` their meaning: `<url|title>` links, `<!channel>`,
 * `<!here>` and `<@user>` mentions; they are written as entities, as Slack asks. Slack has no
 * escape for `*`, `_`, `~` and backticks, which can only change emphasis, so they are kept; a
 * bare `@here` is no mention in a message Steward posts (it never sets `link_names`).
 */

/** Backslash before what Adaptive Card markdown renders (see above). */
export function escapeCardMarkdown(text: string): string {
  return text
    .replace(/[\\*_[\]]/g, "\\$&")
    .replace(/^([ \t]*)([-+])(?=[ \t])/gm, "$1\\$2")
    .replace(/^([ \t]*\d+)([.)])(?=[ \t]|$)/gm, "$1\\$2");
}

/** `&`, `<` and `>` as the entities Slack's mrkdwn asks for. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Every text in `fields` (nested in lists and objects too) escaped by `escape`; other values as they are. */
export function escapedFields<T>(fields: T, escapeText: (text: string) => string): T {
  const each = (value: unknown): unknown => {
    if (typeof value === "string") return escapeText(value);
    if (Array.isArray(value)) return value.map(each);
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, each(inner)]));
    return value;
  };
  return each(fields) as T;
}
