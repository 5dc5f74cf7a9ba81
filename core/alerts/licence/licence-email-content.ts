/**
 * The subject and body of the server licence's expiry email: the operator's subject and body
 * template when configured, the built-in body otherwise, and a plain message built without a
 * template when one cannot be read or rendered, so the alert always goes out; what went wrong is
 * returned to be logged.
 */
import { type BodyTemplate, type EmailContentResult, plainEmailBody, renderEmail } from "../email-message.ts";
import type { LicenceTemplateFields } from "./licence-alert-fields.ts";
import { LICENCE_EMAIL_HTML, LICENCE_EMAIL_TEXT } from "./licence-email-templates.ts";

export function licencePlainBody(fields: LicenceTemplateFields): { html: string; text: string } {
  const lines = [
    fields.message,
    "",
    `Expiry date: ${fields.expiryDate}`,
    `Days until expiry: ${fields.daysUntilExpiry}`,
    `Server: ${fields.hostName}`,
    ...(fields.qlikSenseQMC === "" ? [] : ["", `QMC: ${fields.qlikSenseQMC}`]),
  ];
  return plainEmailBody(lines);
}

export function licenceEmailContent(
  fields: LicenceTemplateFields,
  subjectTemplate: string,
  body: BodyTemplate,
): EmailContentResult {
  return renderEmail({
    context: fields,
    subjectTemplate,
    body,
    builtIn: { html: LICENCE_EMAIL_HTML, text: LICENCE_EMAIL_TEXT },
    plainSubject: fields.message,
    plainBody: () => licencePlainBody(fields),
  });
}
