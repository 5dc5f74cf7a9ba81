/**
 * The subject and body of an alert email: the operator's templates when configured, Steward's
 * built-in ones otherwise, and a plain message with the key fields when a template cannot be
 * read or rendered — the alert always goes out, and the reason is returned to be logged.
 */
import type { TemplateFields } from "../task-events/template-fields.ts";
import { renderAlertTemplate } from "./alert-template.ts";
import { BUILT_IN_EMAIL_HTML, BUILT_IN_EMAIL_TEXT } from "./email-built-in-templates.ts";

export const EMAIL_KINDS = [
  "reloadTaskFailure",
  "reloadTaskAborted",
  "reloadTaskSuccess",
  "distributeTaskFailure",
  "distributeTaskSuccess",
  "preloadTaskFailure",
  "preloadTaskSuccess",
] as const;

export type EmailKind = (typeof EMAIL_KINDS)[number];

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

const KIND_LOOK: Readonly<Record<EmailKind, { heading: string; accent: string }>> = {
  reloadTaskFailure: { heading: "Reload failed", accent: "#c62828" },
  reloadTaskAborted: { heading: "Reload aborted", accent: "#b45f06" },
  reloadTaskSuccess: { heading: "Reload succeeded", accent: "#2e7d32" },
  distributeTaskFailure: { heading: "Distribute task failed", accent: "#c62828" },
  distributeTaskSuccess: { heading: "Distribute task succeeded", accent: "#2e7d32" },
  preloadTaskFailure: { heading: "Preload task failed", accent: "#c62828" },
  preloadTaskSuccess: { heading: "Preload task succeeded", accent: "#2e7d32" },
};

/** A subject is one header line: line ends from a template or a task name would break it. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").trim();

export function plainSubject(kind: EmailKind, fields: TemplateFields): string {
  return oneLine(`Qlik Sense ${KIND_LOOK[kind].heading.toLowerCase()}: "${fields.taskName}"`);
}

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

export function emailContent(
  kind: EmailKind,
  fields: TemplateFields,
  subjectTemplate: string,
  body: BodyTemplate,
): EmailContentResult {
  return renderEmail({
    context: { ...fields, ...KIND_LOOK[kind] },
    subjectTemplate,
    body,
    builtIn: { html: BUILT_IN_EMAIL_HTML, text: BUILT_IN_EMAIL_TEXT },
    plainSubject: plainSubject(kind, fields),
    plainBody: () => plainBody(kind, fields),
  });
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

/**
 * The key fields as plain lines, built without a template so that it cannot fail; the HTML part
 * is the same text in a preformatted block.
 */
export function plainBody(kind: EmailKind, fields: TemplateFields): { html: string; text: string } {
  const { hours, minutes, seconds } = fields.executionDuration;
  const lines = [
    `${KIND_LOOK[kind].heading}: ${fields.taskName}`,
    "",
    `App: ${fields.appName} (${fields.appId})`,
    `Status: ${fields.executionStatusText}`,
    `Node: ${fields.executingNodeName}`,
    `Started: ${fields.executionStartTime.startTimeUTC ?? "-"}`,
    `Ended: ${fields.executionStopTime.stopTimeUTC ?? "-"}`,
    `Duration: ${hours} h ${minutes} min ${seconds} s`,
    `Task id: ${fields.taskId}`,
    `Execution id: ${fields.executionId}`,
    `Message: ${fields.logMessage}`,
    ...Object.entries(fields.unavailable).map(([part, reason]) => `Not available: ${part}: ${reason}`),
    ...(fields.scriptLogTail === "" ? [] : ["", "End of the script log:", fields.scriptLogTail]),
    ...(fields.qlikSenseQMC === "" ? [] : ["", `QMC: ${fields.qlikSenseQMC}`]),
    ...(fields.qlikSenseHub === "" ? [] : [`Hub: ${fields.qlikSenseHub}`]),
  ];
  return plainEmailBody(lines);
}
