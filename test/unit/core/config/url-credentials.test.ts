/**
 * URL settings refuse `user:pass@`: the requests that use them (fetch) refuse such URLs at run time,
 * and alert links would show them to every recipient. The refusal names where credentials go
 * instead and never repeats the value. The operator's own webhooks, called with Basic
 * authentication from the URL as Butler called them, keep taking them.
 */
import { describe, expect, it } from "vitest";
import { problemsOf } from "./helpers.ts";

const WITH_CREDENTIALS = "https://someone:pa55word@service.example.com/path";
const REFUSED = "must not hold a user name or password (user:pass@): HTTP requests refuse such URLs";

const webhook = (webhookURL: string) => ({
  webhookNotification: {
    enable: true,
    reloadTaskFailure: { webhooks: [{ description: "ops", webhookURL }] },
  },
});

describe("URL settings with credentials", () => {
  it.each([
    [
      "heartbeat.remoteURL",
      { heartbeat: { enable: true, remoteURL: WITH_CREDENTIALS } },
      "Service.heartbeat.remoteURL",
      "use the check URL the monitoring service gives",
    ],
    [
      "obsPlatform.event.url",
      { obsPlatform: { enable: true, event: { url: WITH_CREDENTIALS } } },
      "Service.obsPlatform.event.url",
      "send them as a header in the header list beside this URL",
    ],
    [
      "incidentTool.newRelic.url.log",
      { incidentTool: { newRelic: { enable: true, url: { log: WITH_CREDENTIALS } } } },
      "Service.incidentTool.newRelic.url.log",
      "reloadTaskFailure.sharedSettings.header",
    ],
    [
      "qlikSenseUrls.qmc",
      { qlikSenseUrls: { qmc: WITH_CREDENTIALS } },
      "Service.qlikSenseUrls.qmc",
      "a link in an alert is shown to every recipient",
    ],
    [
      "genericUrls[].url",
      { genericUrls: [{ id: "wiki", linkText: "Wiki", url: WITH_CREDENTIALS }] },
      "Service.genericUrls[0].url",
      "a link in an alert is shown to every recipient",
    ],
    [
      "anonTelemetryEndpoint",
      { anonTelemetry: true, anonTelemetryEndpoint: WITH_CREDENTIALS },
      "Service.anonTelemetryEndpoint",
      "give credentials in a header setting",
    ],
  ])(
    "refuses %s holding user:pass@, says where credentials go and never repeats the password",
    (_key, service, path, hint) => {
      // Act
      const problems = problemsOf(service);

      // Assess
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`${path}: ${REFUSED}; `);
      expect(problems[0]).toContain(hint);
      expect(problems[0]).not.toContain("pa55word");
    },
  );

  it("refuses a user name without a password as well", () => {
    expect(
      problemsOf({ heartbeat: { enable: true, remoteURL: "https://someone@hc.example.com/x" } })[0],
    ).toContain(REFUSED);
  });

  it("keeps the plain message for a value that is not an http(s) URL at all", () => {
    expect(
      problemsOf({ heartbeat: { enable: true, remoteURL: "ftp://someone:pw@files.example.com" } }),
    ).toEqual(["Service.heartbeat.remoteURL: must be an http(s) URL"]);
  });

  it("accepts credentials in an operator's webhook URL, sent as Basic authentication", () => {
    expect(problemsOf(webhook(WITH_CREDENTIALS))).toEqual([]);
    expect(problemsOf(webhook("mailto:ops@example.com"))).toEqual([
      "Service.webhookNotification.reloadTaskFailure.webhooks[0].webhookURL: must be an http(s) URL",
    ]);
  });
});
