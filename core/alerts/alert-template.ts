/**
 * Handlebars for alert templates (email subjects and bodies, Teams and Slack titles and
 * formatted messages), in an environment of Steward's own so that helpers registered here do
 * not leak into other uses of the library. The `eq` helper is registered because operators'
 * existing templates compare values with it (`{{#if (eq executionStatusText "Aborted")}}`).
 *
 * A template that cannot be compiled or rendered throws AlertTemplateError; every caller then
 * sends a plain message instead, so that a broken template never loses an alert.
 */
import Handlebars from "handlebars";

const engine = Handlebars.create();
engine.registerHelper("eq", (a: unknown, b: unknown) => a === b);

export class AlertTemplateError extends Error {
  override name = "AlertTemplateError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface RenderOptions {
  /** false for HTML (values are HTML-escaped); true for plain text such as a subject. */
  readonly noEscape: boolean;
  /** Helpers of this rendering only, besides `eq` (the JSON templates' `escapeMarkup`). */
  readonly helpers?: Readonly<Record<string, (...args: never[]) => unknown>>;
}

type Compiled = (fields: object, runtime?: Handlebars.RuntimeOptions) => string;

/** Compiled templates by escape mode and source: alerts render the same few templates again and again. */
const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 100;

function compiled(source: string, options: RenderOptions): Compiled {
  const key = `${options.noEscape ? "t" : "h"}${source}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  // Not strict: a field the alert does not have renders empty, as operators' templates expect.
  const template = engine.compile(source, { noEscape: options.noEscape });
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, template);
  return template;
}

/** Renders `source` with `fields`; throws AlertTemplateError with the library's reason. */
export function renderAlertTemplate(source: string, fields: object, options: RenderOptions): string {
  try {
    const runtime = options.helpers === undefined ? {} : { helpers: { ...options.helpers } };
    return compiled(source, options)(fields, runtime as Handlebars.RuntimeOptions);
  } catch (error) {
    cache.delete(`${options.noEscape ? "t" : "h"}${source}`);
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new AlertTemplateError(`The template cannot be rendered: ${reason}`, { cause: error });
  }
}
