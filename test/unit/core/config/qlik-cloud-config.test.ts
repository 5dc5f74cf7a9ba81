/**
 * `qlikCloud`: the tenants' settings, their defaults, the rules between them (unique names,
 * exactly one credential, webhooks needing the ingest listener), secrets from the environment and
 * masked wherever the configuration is shown.
 */
import { describe, expect, it } from "vitest";
import { MASK, obfuscateConfig } from "../../../../core/config/index.ts";
import { envRef, parseOk, problemsOf } from "./helpers.ts";

const SECRET = "webhook-secret-0123456789abcdef-xyz";

function tenant(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "acme-eu",
    url: "https://acme.eu.qlikcloud.com",
    auth: { oauth: { clientId: "client-id-1", clientSecret: "client-secret-1" } },
    webhook: { secret: SECRET },
    ...overrides,
  };
}

const service = (...tenants: Record<string, unknown>[]) => ({ qlikCloud: { enable: true, tenants } });

describe("qlikCloud settings", () => {
  it("fills every default of a tenant: webhook and polling on, every 5 minutes, 24 hours back", () => {
    // Act
    const config = parseOk(service(tenant()));

    // Assess
    expect(config.qlikCloud.tenants[0]).toEqual({
      name: "acme-eu",
      url: "https://acme.eu.qlikcloud.com",
      auth: { oauth: { clientId: "client-id-1", clientSecret: "client-secret-1" }, apiKey: "" },
      webhook: { enable: true, secret: SECRET },
      poll: { enable: true, interval: "every 5 minutes", initialHours: 24 },
      licences: { enable: true },
      tags: { static: [] },
    });
  });

  it("is off by default, and placeholders may stay in a switched-off section", () => {
    expect(parseOk({}).qlikCloud).toEqual({
      enable: false,
      tenants: [],
      timeseriesdb: { reloadFailure: { enable: true }, reloadSuccess: { enable: false } },
      scriptLogFiles: {
        enable: false,
        directory: "./data/qlik-cloud-script-logs",
        retentionDays: 30,
        maxTotalBytes: 1024 * 1024 * 1024,
      },
    });
    expect(problemsOf({ qlikCloud: { enable: false, tenants: [{ name: "<Name>" }] } })).toEqual([]);
  });

  it("refuses a name that is not lower-case letters, digits and hyphens", () => {
    expect(problemsOf(service(tenant({ name: "Acme EU" })))).toEqual([
      "Service.qlikCloud.tenants[0].name: must be 1 to 63 lower-case letters, digits and hyphens (a-z, 0-9, -), starting and ending with a letter or digit",
    ]);
  });

  it("refuses a name used twice, naming the first tenant", () => {
    expect(problemsOf(service(tenant(), tenant({ url: "https://other.eu.qlikcloud.com" })))).toEqual([
      'Service.qlikCloud.tenants[1].name: "acme-eu" is already the name of tenants[0]',
    ]);
  });

  it("requires the name and an http(s) URL", () => {
    expect(problemsOf(service(tenant({ name: undefined, url: "acme.eu.qlikcloud.com" })))).toEqual([
      "Service.qlikCloud.tenants[0].name: required",
      "Service.qlikCloud.tenants[0].url: must be an http(s) URL",
    ]);
  });

  it("takes an API key instead of the OAuth client", () => {
    const config = parseOk(service(tenant({ auth: { apiKey: "api-key-1" } })));
    expect(config.qlikCloud.tenants[0]?.auth).toEqual({
      oauth: { clientId: "", clientSecret: "" },
      apiKey: "api-key-1",
    });
  });

  it("requires exactly one credential, and both halves of the OAuth client", () => {
    const both = { oauth: { clientId: "id", clientSecret: "secret" }, apiKey: "key" };
    expect(problemsOf(service(tenant({ auth: both })))).toEqual([
      "Service.qlikCloud.tenants[0].auth: give either oauth (clientId and clientSecret) or apiKey, not both",
    ]);
    expect(problemsOf(service(tenant({ auth: {} })))).toEqual([
      "Service.qlikCloud.tenants[0].auth: required: oauth (clientId and clientSecret of a machine-to-machine client) or apiKey",
    ]);
    expect(problemsOf(service(tenant({ auth: { oauth: { clientId: "id" } } })))).toEqual([
      "Service.qlikCloud.tenants[0].auth.oauth.clientSecret: required with clientId",
    ]);
  });

  it("requires a webhook secret of 32 to 64 characters without showing it, unless the webhook is off", () => {
    const short = "too-short-secret";
    const problems = problemsOf(service(tenant({ webhook: { secret: short } })));
    expect(problems).toEqual([
      "Service.qlikCloud.tenants[0].webhook.secret: must be 32 to 64 characters long, as Qlik requires of a webhook's secret",
    ]);
    expect(problemsOf(service(tenant({ webhook: {} })))).toEqual([
      "Service.qlikCloud.tenants[0].webhook.secret: required",
    ]);
    expect(problemsOf(service(tenant({ webhook: { enable: false } })))).toEqual([]);
  });

  it("reads the secrets from the environment, and names a variable that is not set", () => {
    // Prepare
    const fromEnv = tenant({
      auth: { oauth: { clientId: "id", clientSecret: envRef("ACME_CLIENT_SECRET") } },
      webhook: { secret: envRef("ACME_WEBHOOK_SECRET") },
    });

    // Act
    const config = parseOk(service(fromEnv), {
      ACME_CLIENT_SECRET: "from-the-environment",
      ACME_WEBHOOK_SECRET: SECRET,
    });

    // Assess
    expect(config.qlikCloud.tenants[0]?.auth.oauth.clientSecret).toBe("from-the-environment");
    expect(config.qlikCloud.tenants[0]?.webhook.secret).toBe(SECRET);
    expect(problemsOf(service(fromEnv), { ACME_CLIENT_SECRET: "x" })).toContain(
      "Service.qlikCloud.tenants[0].webhook.secret: environment variable ACME_WEBHOOK_SECRET is not set",
    );
  });

  it("refuses a webhook while the ingest API's listener, which receives it, is off", () => {
    expect(problemsOf({ ...service(tenant()), auditEvents: { enable: false } })).toEqual([
      "Service.qlikCloud.tenants[0].webhook.enable: webhooks are received on the ingest API's listener: needs auditEvents.enable: true (or set it to false and let polling find the tenant's runs)",
    ]);
    expect(
      problemsOf({ ...service(tenant({ webhook: { enable: false } })), auditEvents: { enable: false } }),
    ).toEqual([]);
  });

  it("checks the polling schedule and how far back the first poll reads", () => {
    expect(problemsOf(service(tenant({ poll: { interval: "sometimes", initialHours: 2161 } })))).toEqual([
      "Service.qlikCloud.tenants[0].poll.initialHours: must be between 0 and 2160",
      expect.stringMatching(
        /^Service\.qlikCloud\.tenants\[0\]\.poll\.interval: 'sometimes' is not a schedule/,
      ),
    ]);
  });

  it("masks the client secret, the API key and the webhook secret wherever the configuration is shown", () => {
    // Prepare
    const config = parseOk(
      service(tenant(), tenant({ name: "acme-us", auth: { apiKey: "api-key-secret-value" } })),
    );

    // Act
    const shown = JSON.stringify(obfuscateConfig({ Service: config }));

    // Assess
    for (const secret of ["client-secret-1", "api-key-secret-value", SECRET, "client-id-1"]) {
      expect(shown).not.toContain(secret);
    }
    const masked = obfuscateConfig(config).qlikCloud.tenants;
    expect(masked[0]?.auth.oauth).toEqual({ clientId: `cli${MASK}`, clientSecret: MASK });
    expect(masked[1]?.auth.apiKey).toBe(MASK);
    expect(masked[0]?.webhook.secret).toBe(MASK);
    expect(masked[0]?.url).toBe("https://acme.eu.qlikcloud.com");
  });
});
