/** The alert settings' secrets (the SMTP password, the webhook URLs and their tokens) are masked wherever the configuration is shown. */
import { describe, expect, it } from "vitest";
import { obfuscateConfig, parseConfig } from "../../../../core/config/index.ts";

const service = {
  emailNotification: {
    enable: true,
    smtp: { host: "smtp.example.com", auth: { enable: true, user: "alerts", password: "SECRET-smtp" } },
    reloadTaskFailure: { enable: true, fromAddress: "a@example.com", recipients: ["b@example.com"] },
  },
  teamsNotification: {
    enable: true,
    reloadTaskFailure: { enable: true, webhookURL: "https://x.logic.azure.com/workflows/SECRET-teams" },
    serverLicenseExpiry: { enable: true, webhookURL: "https://x.logic.azure.com/workflows/SECRET-lic-teams" },
  },
  slackNotification: {
    enable: true,
    reloadTaskAborted: { enable: true, webhookURL: "https://hooks.slack.com/services/SECRET-slack" },
    serverLicenseExpiry: { enable: true, webhookURL: "https://hooks.slack.com/services/SECRET-lic-slack" },
  },
  webhookNotification: {
    enable: true,
    reloadTaskFailure: { webhooks: [{ webhookURL: "https://tickets.example.com/hook?token=SECRET-hook" }] },
    qlikSenseServerLicenseExpiryAlert: {
      webhooks: [{ webhookURL: "https://tickets.example.com/lic?token=SECRET-lic-hook" }],
    },
  },
};

describe("alert secrets", () => {
  it("masks them in the raw tree and in the parsed configuration", () => {
    expect(JSON.stringify(obfuscateConfig({ Service: service }))).not.toContain("SECRET");
    const parsed = parseConfig({ Service: service });
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (parsed.ok) expect(JSON.stringify(obfuscateConfig(parsed.config))).not.toContain("SECRET");
  });
});
