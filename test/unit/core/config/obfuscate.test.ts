import { describe, expect, it } from "vitest";
import { MASK, obfuscateConfig, parseConfig } from "../../../../core/config/index.ts";
import { envRef } from "./helpers.ts";

/** A tree with every secret set, each to a distinct recognisable value. */
function treeWithAllSecrets() {
  return {
    Service: {
      auditEvents: { apiToken: "SECRET-audit-token" },
      restServer: { apiToken: "SECRET-rest-token" },
      thirdPartyToolsCredentials: {
        obsPlatform: [{ accountName: "Main", insertApiKey: "SECRET-insert-key", accountId: "9876543" }],
      },
      obsPlatform: {
        enable: true,
        event: { header: [{ name: "X-Api", value: "SECRET-event-header" }] },
        metric: { header: [{ name: "X-Api", value: "SECRET-metric-header" }] },
      },
      timeseriesdbConfig: {
        enable: true,
        host: "influxdb.mycompany.com",
        version: 2,
        v1Config: {
          dbName: "db",
          auth: { enable: true, username: "influxuser", password: "SECRET-v1-password" },
        },
        v2Config: { org: "myorganisation", bucket: "mybucket", token: "SECRET-v2-token" },
        v3Config: { database: "db", token: "SECRET-v3-token" },
      },
      cert: {
        clientCert: "/etc/steward/certs/client.pem",
        clientCertKey: "/etc/steward/certs/client_key.pem",
        clientCertCA: "/etc/steward/certs/root.pem",
        clientCertPassphrase: "SECRET-passphrase",
      },
      chat: { webhookURL: "https://hooks.example.com/services/SECRET-webhook" },
      incidentTool: {
        newRelic: {
          enable: true,
          reloadTaskFailure: {
            sharedSettings: { header: [{ name: "X-Api", value: "SECRET-failure-alert-header" }] },
          },
          reloadTaskAborted: {
            sharedSettings: { header: [{ name: "X-Api", value: "SECRET-aborted-alert-header" }] },
          },
        },
      },
      serversToMonitor: {
        servers: [
          {
            host: "sense1.example.com:4747",
            serverName: "s1",
            userSessions: {
              enable: true,
              host: "sense1.example.com:4243",
              virtualProxies: [{ virtualProxy: "/hdr" }],
            },
            headers: { "X-Custom": "SECRET-server-header" },
          },
        ],
      },
      mqttConfig: {
        enable: true,
        brokerHost: "broker.example.com",
        username: "mqttuser",
        password: "SECRET-mqtt-password",
      },
      platform: { host: "sense.example.com" },
      restServerExtra: undefined,
    },
  };
}

const SECRETS = [
  "SECRET-audit-token",
  "SECRET-rest-token",
  "SECRET-insert-key",
  "SECRET-event-header",
  "SECRET-metric-header",
  "SECRET-v1-password",
  "SECRET-v2-token",
  "SECRET-v3-token",
  "SECRET-passphrase",
  "SECRET-webhook",
  "SECRET-server-header",
  "SECRET-mqtt-password",
  "SECRET-failure-alert-header",
  "SECRET-aborted-alert-header",
];

describe("obfuscateConfig", () => {
  it("masks every secret of a raw tree", () => {
    // Act
    const json = JSON.stringify(obfuscateConfig(treeWithAllSecrets()));

    // Assess
    expect(SECRETS.filter((s) => json.includes(s))).toEqual([]);
    expect(json).not.toContain("SECRET");
  });

  it("masks every secret of a parsed config", () => {
    // Prepare
    const { restServerExtra: _, ...service } = treeWithAllSecrets().Service;
    const parsed = parseConfig({ Service: service }, {});
    if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));

    // Act
    const json = JSON.stringify(obfuscateConfig(parsed.config));

    // Assess
    expect(json).not.toContain("SECRET");
  });

  it("replaces secrets entirely and keeps the first characters of hosts and paths", () => {
    // Act
    const masked = obfuscateConfig(treeWithAllSecrets()).Service;

    // Assess
    expect(masked.restServer.apiToken).toBe(MASK);
    expect(masked.thirdPartyToolsCredentials.obsPlatform[0]?.insertApiKey).toBe(MASK);
    expect(masked.thirdPartyToolsCredentials.obsPlatform[0]?.accountName).toBe("Main");
    expect(masked.thirdPartyToolsCredentials.obsPlatform[0]?.accountId).toBe(`987${MASK}`);
    expect(masked.obsPlatform.event.header[0]).toEqual({ name: "X-Api", value: MASK });
    expect(masked.serversToMonitor.servers[0]?.headers).toEqual({ "X-Custom": MASK });
    expect(masked.timeseriesdbConfig.host).toBe(`inf${MASK}`);
    expect(masked.timeseriesdbConfig.v2Config.org).toBe(`myo${MASK}`);
    expect(masked.timeseriesdbConfig.v1Config.auth.username).toBe(`inf${MASK}`);
    expect(masked.mqttConfig.brokerHost).toBe(`bro${MASK}`);
    expect(masked.platform.host).toBe(`sen${MASK}`);
    expect(masked.serversToMonitor.servers[0]?.host).toBe(`sen${MASK}`);
    expect(masked.serversToMonitor.servers[0]?.userSessions.host).toBe(`sen${MASK}`);
    expect(masked.cert.clientCert).toBe(`/etc/stewa${MASK}`);
    expect(masked.chat.webhookURL).toBe(MASK);
    expect(masked.serversToMonitor.servers[0]?.serverName).toBe("s1");
  });

  it("keeps empty secrets empty and never mutates its input", () => {
    // Prepare
    const tree = treeWithAllSecrets();
    const before = JSON.stringify(tree);
    tree.Service.auditEvents.apiToken = "";

    // Act
    const masked = obfuscateConfig(tree);

    // Assess
    expect(masked.Service.auditEvents.apiToken).toBe("");
    expect(tree.Service.restServer.apiToken).toBe("SECRET-rest-token");
    expect(
      JSON.stringify({
        ...tree,
        Service: { ...tree.Service, auditEvents: { apiToken: "SECRET-audit-token" } },
      }),
    ).toBe(before);
  });

  it("keeps the first characters of the names and proxies a listener answers", () => {
    const masked = obfuscateConfig({
      auditEvents: { allowedHosts: ["qlik-ops.corp.local"], trustedProxies: ["10.20.30.0/24"] },
    });

    expect(masked.auditEvents).toEqual({ allowedHosts: [`qli${MASK}`], trustedProxies: [`10.${MASK}`] });
  });

  it("does not reveal short host names entirely", () => {
    expect(obfuscateConfig({ platform: { host: "ab" } }).platform.host).toBe(`a${MASK}`);
  });

  it(`keeps a value that is exactly one ${envRef("NAME")} reference, masks one that mixes it with text`, () => {
    const masked = obfuscateConfig({
      Service: {
        auditEvents: { apiToken: `${envRef("STEWARD_API_TOKEN")}`, host: `${envRef("INGEST_HOST")}` },
        restServer: { apiToken: `Bearer-${envRef("PART")}-literal` },
        heartbeat: { remoteURL: `https://hb.example.com/${envRef("CHECK_ID")}` },
      },
    });
    expect(masked.Service.auditEvents.apiToken).toBe(`${envRef("STEWARD_API_TOKEN")}`);
    expect(masked.Service.auditEvents.host).toBe(`${envRef("INGEST_HOST")}`);
    expect(masked.Service.restServer.apiToken).toBe(MASK);
    expect(masked.Service.heartbeat.remoteURL).toBe(`https://hb.example.com/${MASK}`);
  });

  it("masks the credentials inside a URL whatever its key, and keeps its scheme, host and words", () => {
    // Prepare: the URL-valued keys that are neither secret nor partly masked by name.
    const tree = {
      Service: {
        qlikSenseUrls: {
          qmc: "https://qmcuser:qmcpass@sense.example.com/qmc",
          hub: "https://sense.example.com/hub?ticket=hubticket123",
        },
        genericUrls: [
          { id: "w", linkText: "Wiki", url: "https://genuser:genpass@wiki.example.com/x?api_key=genkey" },
        ],
        obsPlatform: {
          event: { url: "https://insights-collector.eu01.nr-data.net/v1/accounts/98765432/events" },
        },
        incidentTool: { newRelic: { url: { event: "https://nruser:nrpass@insights.example.com" } } },
        heartbeat: { remoteURL: "http://hbuser:hbpass@127.0.0.1:18091/ping/8f14e45f-secret-check-id" },
        cloud: { eventQueueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/steward-events" },
      },
    };

    // Act
    const masked = obfuscateConfig(tree).Service;
    const json = JSON.stringify(masked);

    // Assess
    for (const secret of [
      "qmcpass",
      "hubticket123",
      "genpass",
      "genkey",
      "nrpass",
      "hbpass",
      "8f14e45f",
      "98765432",
    ])
      expect(json).not.toContain(secret);
    expect(json).not.toContain("123456789012");
    expect(masked.qlikSenseUrls.qmc).toBe(`https://${MASK}@sense.example.com/qmc`);
    expect(masked.qlikSenseUrls.hub).toBe(`https://sense.example.com/hub?ticket=${MASK}`);
    expect(masked.genericUrls[0]?.url).toBe(`https://${MASK}@wiki.example.com/x?api_key=${MASK}`);
    expect(masked.obsPlatform.event.url).toBe(
      `https://insights-collector.eu01.nr-data.net/v1/accounts/${MASK}/events`,
    );
    expect(masked.incidentTool.newRelic.url.event).toBe(`https://${MASK}@insights.example.com`);
    expect(masked.heartbeat.remoteURL).toBe(`http://${MASK}@127.0.0.1:18091/${MASK}/${MASK}`);
    expect(masked.cloud.eventQueueUrl).toBe(`https://sqs.eu-west-1.amazonaws.com/${MASK}/steward-events`);
  });

  it("masks a partly masked value that is not a URL by its first characters, as before", () => {
    const masked = obfuscateConfig({
      Service: { heartbeat: { remoteURL: "not a url" }, cert: { clientCert: "C://certs/x.pem" } },
    });
    expect(masked.Service.heartbeat.remoteURL).toBe(`not ${MASK}`);
    expect(masked.Service.cert.clientCert).toBe(`C://cer${MASK}`);
  });
});

describe("obfuscateConfig on a listener's tls", () => {
  it("masks a listener's certificate passphrase entirely and keeps the first characters of its files", () => {
    const masked = obfuscateConfig({
      restServer: {
        tls: {
          enable: true,
          pfx: "C:\\ProgramData\\Steward\\certs\\qlik-ops.pfx",
          cert: "",
          passphrase: "hunter2-but-longer",
        },
      },
    });

    expect(masked.restServer.tls).toEqual({
      enable: true,
      pfx: `C:\\Program${MASK}`,
      cert: "",
      passphrase: MASK,
    });
  });
});

describe("obfuscateConfig on Qlik Cloud tenants", () => {
  const tenant = (auth: Record<string, unknown>) => ({
    name: "acme-eu",
    url: "https://acme.eu.qlikcloud.com",
    auth,
    webhook: { enable: true, secret: "SECRET-webhook-secret-0123456789abcdef" },
    poll: { enable: false, interval: "every 5 minutes", initialHours: 24 },
  });
  const tree = {
    Service: {
      auditEvents: { enable: true },
      qlikCloud: {
        enable: true,
        tenants: [
          tenant({ oauth: { clientId: "0123456789abcdef", clientSecret: "SECRET-client-secret" } }),
          { ...tenant({ apiKey: "SECRET-api-key" }), name: "acme-us", url: "https://acme.us.qlikcloud.com" },
        ],
      },
      webhookNotification: {
        enable: true,
        timeoutSeconds: 15,
        reloadTaskFailure: {
          webhooks: [{ description: "ops", webhookURL: "https://hooks.example.com/SECRET-hook-path" }],
        },
      },
    },
  };

  it("masks the webhook secret, the OAuth client secret and the API key, and shows the switches and the tenant's address", () => {
    for (const shown of [tree, { Service: parsedOk(tree) }]) {
      const masked = obfuscateConfig(shown as typeof tree).Service;
      const [oauth, apiKey] = masked.qlikCloud.tenants;
      expect(JSON.stringify(masked)).not.toContain("SECRET");
      expect(oauth?.webhook).toEqual({ enable: true, secret: MASK });
      expect(oauth?.poll).toEqual({ enable: false, interval: "every 5 minutes", initialHours: 24 });
      expect(oauth?.auth.oauth).toMatchObject({ clientId: `012${MASK}`, clientSecret: MASK });
      expect(apiKey?.auth.apiKey).toBe(MASK);
      // The address opens nothing without the credential: its host shows, as any URL's does.
      expect(oauth?.url).toBe("https://acme.eu.qlikcloud.com");
      expect(apiKey?.url).toBe("https://acme.us.qlikcloud.com");
      expect(masked.webhookNotification).toMatchObject({ enable: true, timeoutSeconds: 15 });
      expect(masked.webhookNotification.reloadTaskFailure.webhooks[0]?.webhookURL).toBe(MASK);
    }
  });

  it("masks what looks like a credential in a tenant's address as in any URL", () => {
    const masked = obfuscateConfig({
      qlikCloud: { tenants: [{ url: "https://acme.eu.qlikcloud.com/?qlik-web-integration-id=SECRET-id" }] },
    });
    expect(masked.qlikCloud.tenants[0]?.url).toBe(
      `https://acme.eu.qlikcloud.com/?qlik-web-integration-id=${MASK}`,
    );
  });
});

function parsedOk(tree: { Service: Record<string, unknown> }) {
  const parsed = parseConfig(tree, {});
  if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return parsed.config;
}
