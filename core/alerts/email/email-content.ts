/**
 * The subject and body of an alert email, whatever its kind: the operator's templates when
 * configured, Steward's built-in ones otherwise, and a plain message with the key fields when a
 * template cannot be read or rendered — the alert always goes out, and the reason is returned to
 * be logged.
 */
import { renderAlertTemplate } from "../alert-template.ts";

export interface EmailContent {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/** The operator's body template: its source, or why it could not be read; undefined = built-in. */
export type BodyTemplate = { readonly source: string } | { readonly error: string } | undefined;

export interface EmailContentResult {
  readonly content: EmailContent;
  /** What went wrong with a template (the email was sent with a fallback); empty when nothing did. */
  readonly problems: readonly string[];
}

/** A subject is one header line: line ends from a template or a task name would break it. */
export const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").trim();

/** What one email is made of: the templates, what they see, and the plain forms that cannot fail. */
export interface EmailParts {
  /** The fields the templates see. */
  readonly context: object;
  readonly subjectTemplate: string;
  /** The operator's body template, or undefined for `builtIn`. */
  readonly body: BodyTemplate;
  readonly builtIn: { readonly html: string; readonly text: string };
  /** Sent when the subject template cannot be rendered or renders empty. */
  readonly plainSubject: string;
  /** Sent when the body template cannot be read or rendered. */
  readonly plainBody: () => { html: string; text: string };
}

/**
 * Renders the subject and body, falling back to the plain forms one part at a time; every alert
 * email (reload tasks, the server licence) is made here, so a broken template never loses one.
 */
export function renderEmail(parts: EmailParts): EmailContentResult {
  const problems: string[] = [];
  let subject: string;
  try {
    subject = oneLine(renderAlertTemplate(parts.subjectTemplate, parts.context, { noEscape: true }));
  } catch (error) {
    problems.push(`subject: ${(error as Error).message}`);
    subject = parts.plainSubject;
  }
  if (subject === "") subject = parts.plainSubject;
  if (parts.body !== undefined && "error" in parts.body) {
    problems.push(`body: ${parts.body.error}`);
    return { content: { subject, ...parts.plainBody() }, problems };
  }
  try {
    const html = renderAlertTemplate(parts.body?.source ?? parts.builtIn.html, parts.context, {
      noEscape: false,
    });
    const text = renderAlertTemplate(parts.builtIn.text, parts.context, { noEscape: true });
    return { content: { subject, html, text }, problems };
  } catch (error) {
    problems.push(`body: ${(error as Error).message}`);
    return { content: { subject, ...parts.plainBody() }, problems };
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A plain body: the text, and as HTML the same text in a preformatted block. */
export function plainEmailBody(lines: readonly string[]): { html: string; text: string } {
  const text = `${lines.join("\n")}\n`;
  return {
    text,
    html: `<!DOCTYPE html><html><body><pre style="font-family:monospace">${escapeHtml(text)}</pre></body></html>`,
  };
}
