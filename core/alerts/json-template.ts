/**
 * Formatted Teams and Slack messages: the operator's Handlebars file renders to the message's
 * JSON. Every text value is JSON-escaped before it is put in (quotes, backslashes, and line ends
 * as `\n` escapes), so a script log with backslashes or quotes keeps the JSON valid and its line
 * ends arrive as line ends after parsing, never as the two characters `\` `n`.
 */
import { renderAlertTemplate } from "./alert-template.ts";

function jsonEscaped(value: unknown): unknown {
  if (typeof value === "string") return JSON.stringify(value).slice(1, -1);
  if (Array.isArray(value)) return value.map(jsonEscaped);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, jsonEscaped(each)]));
  return value;
}

/** Renders the template with JSON-escaped fields and parses the result; throws with the reason when it is not JSON. */
export function renderJsonTemplate(source: string, fields: object): unknown {
  const text = renderAlertTemplate(source, jsonEscaped(fields) as object, { noEscape: true });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`The template did not render to JSON: ${(error as Error).message}`, { cause: error });
  }
}
