/**
 * The subject and body of the server licence's expiry email: the operator's subject and body
 * template when configured, the built-in body otherwise, and a plain message built without a
 * template when one cannot be read or rendered, so the alert always goes out; what went wrong is
 * returned to be logged.
 */
import { renderAlertTemplate } from "../alert-template.ts";
import type { BodyTemplate, EmailContentResult } from "../email-message.ts";
import type { LicenceTemplateFields } from "./licence-alert-fields.ts";
import { LICENCE_EMAIL_HTML, LICENCE_EMAIL_TEXT } from "./licence-email-templates.ts";

/** A subject is one header line. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").trim();

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function licencePlainBody(fields: LicenceTemplateFields): { html: string; text: string } {
  const lines = [
    fields.message,
    "",
    `Expiry date: ${fields.expiryDate}`,
    `Days until expiry: ${fields.daysUntilExpiry}`,
    `Server: ${fields.hostName}`,
    ...(fields.qlikSenseQMC === "" ? [] : ["", `QMC: ${fields.qlikSenseQMC}`]),
  ];
  const text = `${lines.join("\n")}\n`;
  return {
    text,
    html: `<!DOCTYPE html><html><body><pre style="font-family:monospace">${escapeHtml(text)}</pre></body></html>`,
  };
}

export function licenceEmailContent(
  fields: LicenceTemplateFields,
  subjectTemplate: string,
  body: BodyTemplate,
): EmailContentResult {
  const problems: string[] = [];
  let subject: string;
  try {
    subject = oneLine(renderAlertTemplate(subjectTemplate, fields, { noEscape: true }));
  } catch (error) {
    problems.push(`subject: ${(error as Error).message}`);
    subject = fields.message;
  }
  if (subject === "") subject = fields.message;
  if (body !== undefined && "error" in body) {
    problems.push(`body: ${body.error}`);
    return { content: { subject, ...licencePlainBody(fields) }, problems };
  }
  try {
    const html = renderAlertTemplate(body?.source ?? LICENCE_EMAIL_HTML, fields, { noEscape: false });
    const text = renderAlertTemplate(LICENCE_EMAIL_TEXT, fields, { noEscape: true });
    return { content: { subject, html, text }, problems };
  } catch (error) {
    problems.push(`body: ${(error as Error).message}`);
    return { content: { subject, ...licencePlainBody(fields) }, problems };
  }
}
