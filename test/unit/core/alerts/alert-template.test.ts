import { describe, expect, it } from "vitest";
import { AlertTemplateError, renderAlertTemplate } from "../../../../core/alerts/alert-template.ts";
import { templateCandidates } from "../../../../core/alerts/email/email-destination.ts";

describe("alert templates", () => {
  it("has the eq helper operators' templates use", () => {
    const source = '{{#if (eq status "Aborted")}}stopped{{else}}other{{/if}}';
    expect(renderAlertTemplate(source, { status: "Aborted" }, { noEscape: true })).toBe("stopped");
    expect(renderAlertTemplate(source, { status: "FinishedFail" }, { noEscape: true })).toBe("other");
  });

  it("escapes HTML unless told not to", () => {
    expect(renderAlertTemplate("{{x}}", { x: "<b>" }, { noEscape: false })).toBe("&lt;b&gt;");
    expect(renderAlertTemplate("{{x}}", { x: "<b>" }, { noEscape: true })).toBe("<b>");
  });

  it("throws AlertTemplateError with the reason for a template that does not compile", () => {
    expect(() => renderAlertTemplate("{{#if x}}", {}, { noEscape: true })).toThrow(AlertTemplateError);
  });

  it("looks for a body template as named, with .handlebars, and with Butler's -qseow ending", () => {
    expect(templateCandidates("/t", "failed-reload")).toEqual([
      "/t/failed-reload",
      "/t/failed-reload.handlebars",
      "/t/failed-reload-qseow.handlebars",
    ]);
    expect(templateCandidates("/t", "mine.handlebars")).toEqual(["/t/mine.handlebars"]);
  });
});
