import { describe, expect, it } from "vitest";
import { problemsOf } from "./helpers.ts";

const account = (accountName: string) => ({ accountName, insertApiKey: "k", accountId: "1" });
const server = (serverTags: Record<string, string>) => ({
  host: "sense1.example.com:4747",
  serverName: "s1",
  serverTags,
});

describe("cross-field rules: telemetry, health check, heartbeat and audit limits", () => {
  it("anonymous telemetry needs systemInfo", () => {
    const endpoint = "https://telemetry.example.com/v1";
    expect(
      problemsOf({ anonTelemetry: true, anonTelemetryEndpoint: endpoint, systemInfo: { enable: false } }),
    ).toEqual(["Service.anonTelemetry: anonymous telemetry needs systemInfo.enable: true"]);
    expect(
      problemsOf({ anonTelemetry: true, anonTelemetryEndpoint: endpoint, systemInfo: { enable: true } }),
    ).toEqual([]);
    expect(problemsOf({ anonTelemetry: false, systemInfo: { enable: false } })).toEqual([]);
  });

  it("anonymous telemetry needs an http(s) anonTelemetryEndpoint, which is free while telemetry is off", () => {
    expect(problemsOf({ anonTelemetry: true })).toEqual([
      "Service.anonTelemetryEndpoint: required when anonTelemetry is true",
    ]);
    expect(problemsOf({ anonTelemetry: true, anonTelemetryEndpoint: "ftp://x.example.com" })).toEqual([
      "Service.anonTelemetryEndpoint: must be an http(s) URL",
    ]);
    expect(problemsOf({ anonTelemetry: false, anonTelemetryEndpoint: "<placeholder>" })).toEqual([]);
  });

  it("the container health check (on 127.0.0.1) clashes with a listener on its port", () => {
    expect(
      problemsOf({
        containerHealthCheck: { enable: true, port: 8081 },
      }),
    ).toEqual([
      "Service.containerHealthCheck.port: 127.0.0.1:8081 is already used by restServer (127.0.0.1:8081)",
    ]);
    expect(problemsOf({ containerHealthCheck: { enable: true, port: 12398 } })).toEqual([]);
  });

  it("heartbeat.remoteURL must be http(s) when enabled", () => {
    expect(problemsOf({ heartbeat: { enable: true, remoteURL: "mailto:ops@example.com" } })).toEqual([
      "Service.heartbeat.remoteURL: must be an http(s) URL",
    ]);
    expect(problemsOf({ heartbeat: { enable: true, remoteURL: "https://monitor.example.com/hb" } })).toEqual(
      [],
    );
  });

  it("audit queue and HTTP limits must be positive integers", () => {
    expect(
      problemsOf({
        auditEvents: {
          maxBodyBytes: 0,
          correlationIdMaxLength: 1.5,
          rateLimit: { maxPerMinute: -1 },
          queue: { maxSize: 0, maxConcurrent: 2.5, rateLimit: { enable: true, maxPerMinute: 0 } },
        },
      }),
    ).toEqual([
      "Service.auditEvents.correlationIdMaxLength: must be an integer",
      "Service.auditEvents.maxBodyBytes: must be >= 1",
      "Service.auditEvents.queue.maxConcurrent: must be an integer",
      "Service.auditEvents.queue.maxSize: must be >= 1",
      "Service.auditEvents.queue.rateLimit.maxPerMinute: must be >= 1",
      "Service.auditEvents.rateLimit.maxPerMinute: must be >= 1",
    ]);
  });

  it("rejects unknown audit destination types and bad compatibility ranges", () => {
    expect(
      problemsOf({
        auditEvents: {
          destination: { type: "parquet,influxdb" },
          compatibility: [{ serverRange: "not a range", clientRange: ">=0.3.0" }],
          cors: { allowedOrigins: ["https://ok.example.com", "https://x.example.com/path"] },
        },
      }),
    ).toEqual([
      "Service.auditEvents.compatibility[0].serverRange: must be a semver range such as >=15.0.0 <16.0.0",
      'Service.auditEvents.cors.allowedOrigins[1]: must be an origin such as "https://host:port" or "*"',
      'Service.auditEvents.destination.type: unknown destination type "influxdb" (allowed: timeseriesdb, parquet, tablefile, json)',
    ]);
  });
});

describe("cross-field rules: server tags and destination accounts", () => {
  describe("server tags", () => {
    it("accepts servers setting exactly the defined tags", () => {
      expect(
        problemsOf({
          serversToMonitor: {
            serverTagsDefinition: ["group", "site"],
            servers: [server({ group: "DEV", site: "EU" })],
          },
        }),
      ).toEqual([]);
    });

    it("requires every defined tag in every server", () => {
      expect(
        problemsOf({
          serversToMonitor: {
            serverTagsDefinition: ["group", "site"],
            servers: [server({ group: "DEV", site: "EU" }), server({ group: "PROD" })],
          },
        }),
      ).toEqual([
        'Service.serversToMonitor.servers[1].serverTags: tag "site" from serverTagsDefinition is missing',
      ]);
    });

    it("rejects tags that are not defined", () => {
      expect(problemsOf({ serversToMonitor: { servers: [server({ extra: "x" })] } })).toEqual([
        "Service.serversToMonitor.servers[0].serverTags.extra: tag is not listed in serverTagsDefinition",
      ]);
    });

    it("requires tag names that are valid metric label names and not built in", () => {
      expect(
        problemsOf({
          serversToMonitor: {
            serverTagsDefinition: ["data-centre", "2nd", "__meta", "server_name", "site_2"],
            servers: [server({ "data-centre": "a", "2nd": "b", __meta: "c", server_name: "d", site_2: "e" })],
          },
        }),
      ).toEqual([
        'Service.serversToMonitor.serverTagsDefinition[0]: tag name "data-centre" is not a valid metric label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)',
        'Service.serversToMonitor.serverTagsDefinition[1]: tag name "2nd" is not a valid metric label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)',
        'Service.serversToMonitor.serverTagsDefinition[2]: tag name "__meta" is not a valid metric label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)',
        'Service.serversToMonitor.serverTagsDefinition[3]: tag name "server_name" is built in; choose another name',
      ]);
    });

    it("rejects a null tag value", () => {
      expect(
        problemsOf({
          serversToMonitor: {
            serverTagsDefinition: ["group"],
            servers: [{ ...server({}), serverTags: { group: null } }],
          },
        }),
      ).toEqual(["Service.serversToMonitor.servers[0].serverTags.group: expected string, received null"]);
    });
  });

  describe("destination accounts", () => {
    it("must name accounts of thirdPartyToolsCredentials when the feature is active", () => {
      expect(
        problemsOf({
          thirdPartyToolsCredentials: { obsPlatform: [account("Main")] },
          restServer: {
            endpointsEnable: { observabilityEvent: true, observabilityMetric: true },
            observability: {
              event: { destinationAccount: ["Main"] },
              metric: { destinationAccount: ["Mian"] },
            },
          },
          userEvents: { enable: true, sendToObsPlatform: { enable: true, destinationAccount: ["Other"] } },
          logEvents: {
            source: { proxy: { enable: true } },
            sendToObsPlatform: { enable: true, destinationAccount: ["X"] },
          },
          uptimeMonitor: {
            enable: true,
            storeObsPlatform: { enable: true, destinationAccount: ["Main", "Y"] },
          },
          obsPlatform: { enable: true, metric: { destinationAccount: ["Z"] } },
        }),
      ).toEqual([
        'Service.logEvents.sendToObsPlatform.destinationAccount[0]: account "X" is not defined in thirdPartyToolsCredentials.obsPlatform',
        'Service.obsPlatform.metric.destinationAccount[0]: account "Z" is not defined in thirdPartyToolsCredentials.obsPlatform',
        'Service.restServer.observability.metric.destinationAccount[0]: account "Mian" is not defined in thirdPartyToolsCredentials.obsPlatform (did you mean "Main"?)',
        'Service.uptimeMonitor.storeObsPlatform.destinationAccount[1]: account "Y" is not defined in thirdPartyToolsCredentials.obsPlatform',
        'Service.userEvents.sendToObsPlatform.destinationAccount[0]: account "Other" is not defined in thirdPartyToolsCredentials.obsPlatform',
      ]);
    });

    it("must name accounts of thirdPartyToolsCredentials in the reload alerts to the observability platform", () => {
      // Prepare
      const always = (account: string[]) => ({
        enable: true,
        sendToAccount: { always: { enable: true, account } },
      });
      const newRelic = (enable: boolean) => ({
        enable,
        destinationAccount: { event: ["Main"], log: ["Mian"] },
        reloadTaskFailure: { destination: { event: always(["Main", "Q"]) } },
        reloadTaskAborted: {
          destination: { log: always(["R"]), event: { sendToAccount: { always: { account: ["Off"] } } } },
        },
      });
      const credentials = { obsPlatform: [account("Main")] };

      // Act
      const on = problemsOf({
        thirdPartyToolsCredentials: credentials,
        incidentTool: { newRelic: newRelic(true) },
      });
      const off = problemsOf({ incidentTool: { newRelic: newRelic(false) } });

      // Assess
      expect(on).toEqual([
        'Service.incidentTool.newRelic.destinationAccount.log[0]: account "Mian" is not defined in thirdPartyToolsCredentials.obsPlatform (did you mean "Main"?)',
        'Service.incidentTool.newRelic.reloadTaskAborted.destination.log.sendToAccount.always.account[0]: account "R" is not defined in thirdPartyToolsCredentials.obsPlatform',
        'Service.incidentTool.newRelic.reloadTaskFailure.destination.event.sendToAccount.always.account[1]: account "Q" is not defined in thirdPartyToolsCredentials.obsPlatform',
      ]);
      expect(off).toEqual([]);
    });

    it("checks the accounts themselves when the reload alerts to the observability platform are on", () => {
      expect(
        problemsOf({
          thirdPartyToolsCredentials: { obsPlatform: [{ accountName: "Main", accountId: "1" }] },
          incidentTool: { newRelic: { enable: true } },
        }),
      ).toEqual(["Service.thirdPartyToolsCredentials.obsPlatform[0].insertApiKey: required"]);
    });

    it("are not checked when the feature using them is off", () => {
      expect(
        problemsOf({
          restServer: { observability: { event: { destinationAccount: ["Nope"] } } },
          userEvents: { enable: true, sendToObsPlatform: { enable: false, destinationAccount: ["Nope"] } },
        }),
      ).toEqual([]);
    });
  });
});

describe("cross-field rules: endpoint prerequisites and listeners", () => {
  describe("endpoint prerequisites", () => {
    it.each(["appReload", "appDump", "appList", "reloadTaskStart"])("%s needs platform.host", (endpoint) => {
      expect(problemsOf({ restServer: { endpointsEnable: { [endpoint]: true } } })).toEqual([
        `Service.platform.host: required when restServer.endpointsEnable.${endpoint} is enabled`,
      ]);
      expect(
        problemsOf({
          restServer: { endpointsEnable: { [endpoint]: true } },
          platform: { host: "sense.example.com" },
        }),
      ).toEqual([]);
    });

    it("platform endpoints of a disabled REST server need nothing", () => {
      expect(problemsOf({ restServer: { enable: false, endpointsEnable: { appReload: true } } })).toEqual([]);
    });

    it("chatPostMessage needs an http(s) webhook URL", () => {
      const chat = (webhookURL?: string) =>
        problemsOf({
          restServer: { endpointsEnable: { chatPostMessage: true } },
          ...(webhookURL === undefined ? {} : { chat: { webhookURL } }),
        });
      expect(chat()).toEqual(["Service.chat.webhookURL: required"]);
      expect(chat("not a url")).toEqual(["Service.chat.webhookURL: must be an http(s) URL"]);
      expect(chat("https://hooks.example.com/services/T/B/X")).toEqual([]);
      expect(problemsOf({ chat: { webhookURL: "<placeholder>" } })).toEqual([]);
    });

    it("createDirTableData needs fileOperations.tableDataDirectory", () => {
      expect(problemsOf({ restServer: { endpointsEnable: { createDirTableData: true } } })).toEqual([
        "Service.fileOperations.tableDataDirectory: required when restServer.endpointsEnable.createDirTableData is enabled",
      ]);
      expect(
        problemsOf({
          restServer: { endpointsEnable: { createDirTableData: true } },
          fileOperations: { tableDataDirectory: "/data/qvd" },
        }),
      ).toEqual([]);
    });
  });

  describe("listeners", () => {
    it("rejects auditEvents and restServer on the same host and port", () => {
      expect(problemsOf({ auditEvents: { port: 9000 }, restServer: { port: 9000 } })).toEqual([
        "Service.restServer.port: 127.0.0.1:9000 is already used by auditEvents (127.0.0.1:9000)",
      ]);
    });

    it("treats 0.0.0.0 as clashing with every host", () => {
      expect(
        problemsOf({ auditEvents: { host: "0.0.0.0", port: 9000 }, restServer: { port: 9000 } }),
      ).toHaveLength(1);
    });

    it("accepts the same port on different hosts, or when one listener is disabled", () => {
      expect(
        problemsOf({ auditEvents: { host: "127.0.0.2", port: 9000 }, restServer: { port: 9000 } }),
      ).toEqual([]);
      expect(problemsOf({ auditEvents: { enable: false, port: 9000 }, restServer: { port: 9000 } })).toEqual(
        [],
      );
    });
  });
});

describe("cross-field rules in the same pass as invalid values", () => {
  it("are reported together with a value the schema refuses", () => {
    expect(
      problemsOf({
        logLevel: "loud",
        restServer: { endpointsEnable: { createDirTableData: true } },
        licenseMonitor: { enable: true },
      }),
    ).toEqual([
      "Service.fileOperations.tableDataDirectory: required when restServer.endpointsEnable.createDirTableData is enabled",
      "Service.logLevel: must be one of error, warn, info, verbose, debug, silly",
      "Service.platform.host: required when licenseMonitor.enable is true",
    ]);
  });

  it("say nothing that the default standing in for an invalid value could cause", () => {
    expect(
      problemsOf({
        auditEvents: { port: "81O1" },
        restServer: { port: 8181 },
        platform: { host: "<platform host>" },
        licenseMonitor: { enable: true },
      }),
    ).toEqual([
      'Service.auditEvents.port: expected number, received "81O1"',
      'Service.platform.host: "<platform host>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
    ]);
  });

  it("wait for the next run when an invalid value cannot give way to a default (a list item)", () => {
    expect(
      problemsOf({
        logLevel: "loud",
        serversToMonitor: { servers: [{ host: 4747, serverName: "s1" }] },
        licenseMonitor: { enable: true },
      }),
    ).toEqual([
      "Service.logLevel: must be one of error, warn, info, verbose, debug, silly",
      "Service.serversToMonitor.servers[0].host: expected string, received 4747",
    ]);
  });
});
