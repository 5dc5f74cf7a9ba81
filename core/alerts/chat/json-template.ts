/**
 * Formatted Teams and Slack messages: the operator's Handlebars file renders to the message's
 * JSON. Every text value is JSON-escaped before it is put in (quotes, backslashes, and line ends
 * as `\n` escapes), so a script log with backslashes or quotes keeps the JSON valid and its line
 * ends arrive as line ends after parsing, never as the two characters `\` `n`.
 *
 * The fields are not escaped for the service's markup: a template may put them where markup is
 * not read (a button's URL, Slack's plain-text header), where an escape would show or break the
 * link. Where a field lands in text the service renders (a TextBlock, a fact, a mrkdwn text),
 * the template writes `{{escapeMarkup taskName}}`: the field escaped for the service's markup
 * (chat-markup.ts), then for JSON, so that a name can never become a link or a mention.
 */
import { renderAlertTemplate } from "../alert-template.ts";

function jsonEscaped(value: unknown): unknown {
  if (typeof value === "string") return JSON.stringify(value).slice(1, -1);
  if (Array.isArray(value)) return value.map(jsonEscaped);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, jsonEscaped(each)]));
  return value;
}

/** The `escapeMarkup` helper: the field arrives JSON-escaped, so it is read back, escaped for the markup, and JSON-escaped again. */
function markupHelper(escapeText: (text: string) => string) {
  return (value: unknown): unknown => {
    if (typeof value !== "string") return value;
    let text = value;
    try {
      text = JSON.parse(`"${value}"`) as string;
    } catch {
      // A literal of the template rather than a field: taken as written.
    }
    return JSON.stringify(escapeText(text)).slice(1, -1);
  };
}

/**
 * Renders the template with JSON-escaped fields and parses the result; throws with the reason
 * when it is not JSON. `escape` is the service's markup escaping, offered as `escapeMarkup`.
 */
export function renderJsonTemplate(
  source: string,
  fields: object,
  escapeText: (text: string) => string,
): unknown {
  const text = renderAlertTemplate(source, jsonEscaped(fields) as object, {
    noEscape: true,
    helpers: { escapeMarkup: markupHelper(escapeText) },
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`The template did not render to JSON: ${(error as Error).message}`, { cause: error });
  }
}
