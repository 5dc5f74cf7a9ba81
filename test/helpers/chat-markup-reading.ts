/**
 * How Teams and Slack read a text Steward posts, for tests of the escaping of data: what an
 * Adaptive Card's markdown shows once CommonMark's backslash escapes are undone, which of its
 * characters still act as markup (emphasis, links, lists), and which Slack control sequences
 * (`<url|title>` links, `<!channel>` and `<@user>` mentions) a mrkdwn text holds.
 */

/** CommonMark's backslash escape: a backslash before ASCII punctuation. */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;

/** The text as a card shows it: the escapes undone. */
export function cardTextShown(markdown: string): string {
  return markdown.replace(ESCAPED, "$1");
}

/** What still acts as card markdown: unescaped `*`, `_`, `[`, `]`, `\`, and list markers at a line's start. */
export function cardMarkupLeft(markdown: string): string[] {
  const unescaped = markdown.replace(ESCAPED, "");
  const characters = unescaped.match(/[*_[\]\\]/g) ?? [];
  const lists = unescaped.match(/^[ \t]*(?:[-+]|\d+[.)])(?=[ \t])/gm) ?? [];
  return [...characters, ...lists.map((marker) => marker.trim())];
}

/** Slack's control sequences in a mrkdwn text. */
export function slackControlSequences(mrkdwn: string): string[] {
  return mrkdwn.match(/<[^>]*>/g) ?? [];
}
