import { describe, expect, it } from "vitest";
import { cloudRunsPublish } from "../../../../core/config/index.ts";
import { parseOk, problemsOf } from "./helpers.ts";

describe("disabled sections: values are not validated, key names are", () => {
  it("returns a disabled section as its defaults with enable false", () => {
    // Act
    const config = parseOk({
      mqttConfig: { enable: false, brokerHost: "<IP of broker>", brokerPort: "<port>" },
    });

    // Assess
    expect(config.mqttConfig).toEqual({
      enable: false,
      brokerHost: "localhost",
      brokerPort: 1883,
      baseTopic: "steward/",
      clientId: "",
      username: "",
      password: "",
      tls: { enable: false, caFile: "", certFile: "", keyFile: "", rejectUnauthorized: true },
      subscriptionRootTopic: "",
      taskStartTopic: "",
      taskFailureServerStatusTopic: "qliksense/butler/task_failure_server",
    });
  });

  it("applies to nested sections at any depth (userEvents.sendToMQTT)", () => {
    // Prepare
    const userEvents = (sendEnabled: boolean) => ({
      enable: true,
      sendToMQTT: { enable: sendEnabled, postTo: { everythingTopic: { topic: 42 } }, bogus: true },
    });

    // Act
    const off = problemsOf({ userEvents: userEvents(false) });
    const on = problemsOf({ userEvents: userEvents(true) });

    // Assess
    expect(off).toEqual(["Service.userEvents.sendToMQTT.bogus: unknown key"]);
    expect(on).toEqual([
      "Service.userEvents.sendToMQTT.bogus: unknown key",
      "Service.userEvents.sendToMQTT.postTo.everythingTopic.topic: expected string, received 42",
    ]);
  });

  it("uses the custom flags of appNames and userSessions", () => {
    // Act
    const off = problemsOf({
      appNames: { enableAppNameExtract: false, hostIP: "<IP or FQDN>" },
      userSessions: { enableSessionExtract: false, pollingInterval: "<ms>" },
    });
    const on = problemsOf({
      appNames: { enableAppNameExtract: true, hostIP: "<IP or FQDN>" },
      userSessions: { enableSessionExtract: true, pollingInterval: "<ms>" },
    });

    // Assess
    expect(off).toEqual([]);
    expect(on).toEqual([
      'Service.appNames.hostIP: "<IP or FQDN>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      'Service.userSessions.pollingInterval: expected number, received "<ms>"',
    ]);
  });

  it("validates logEvents only when a source is enabled", () => {
    // Prepare
    const logEvents = (engine: boolean) => ({
      udpServerConfig: { serverHost: "<IP or FQDN>" },
      source: { engine: { enable: engine } },
    });

    // Act / Assess
    expect(problemsOf({ logEvents: logEvents(false) })).toEqual([]);
    expect(problemsOf({ logEvents: logEvents(true) })).toEqual([
      'Service.logEvents.udpServerConfig.serverHost: "<IP or FQDN>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
    ]);
  });

  it("does not validate the values of restServer or auditEvents when they are disabled, only their key names", () => {
    // Act
    const problems = problemsOf({
      restServer: { enable: false, port: "<port>", endpointsEnable: { nope: true, appLst: "<yes>" } },
      auditEvents: { enable: false, host: "<host>", destination: { type: "nope" } },
    });

    // Assess
    expect(problems).toEqual([
      'Service.restServer.endpointsEnable.appLst: unknown key (did you mean "appList"?)',
      "Service.restServer.endpointsEnable.nope: unknown key",
    ]);
  });

  it("reports a misspelt switch of a section that is off, which would otherwise leave it off silently", () => {
    // Act
    const problems = problemsOf({
      heartbeat: { enabled: true, remoteUrl: "<monitor URL>" },
      mqttConfig: { Enable: true, brokerHost: "<IP of broker>", tls: { caFiel: "<ca.pem>" } },
    });

    // Assess
    expect(problems).toEqual([
      'Service.heartbeat.enabled: unknown key (did you mean "enable"?)',
      'Service.heartbeat.remoteUrl: unknown key (did you mean "remoteURL"?)',
      'Service.mqttConfig.Enable: unknown key (did you mean "enable"?)',
      'Service.mqttConfig.tls.caFiel: unknown key (did you mean "caFile"?)',
    ]);
  });

  it("checks key names inside the list items of a section that is off", () => {
    // Act
    const problems = problemsOf({
      webhookNotification: {
        enable: false,
        reloadTaskFailure: { webhooks: [{ webhookURL: "<url>", cert: { enable: true, certCa: "<ca>" } }] },
      },
    });

    // Assess
    expect(problems).toEqual([
      'Service.webhookNotification.reloadTaskFailure.webhooks[0].cert.certCa: unknown key (did you mean "certCA"?)',
    ]);
  });
});

describe("the time-series database section", () => {
  it("validates only the block of the selected version", () => {
    // Act
    const problems = problemsOf({
      timeseriesdbConfig: {
        enable: true,
        version: 2,
        v1Config: { dbName: 12, retentionPolicy: "<placeholder>" },
        v2Config: { org: "o", bucket: "b", token: "t", retentionDuration: "30m" },
        v3Config: { token: "<token>", queryTimeout: "<ms>", anything: "<placeholder>" },
      },
    });

    // Assess
    expect(problems).toEqual(["Service.timeseriesdbConfig.v3Config.anything: unknown key"]);
  });

  it.each([
    [1, {}, ["Service.timeseriesdbConfig.v1Config.dbName: required"]],
    [
      2,
      {},
      [
        "Service.timeseriesdbConfig.v2Config.bucket: required",
        "Service.timeseriesdbConfig.v2Config.org: required",
        "Service.timeseriesdbConfig.v2Config.token: required",
      ],
    ],
    [
      3,
      {},
      [
        "Service.timeseriesdbConfig.v3Config.database: required",
        "Service.timeseriesdbConfig.v3Config.token: required",
      ],
    ],
  ])("version %i requires the members of its block", (version, extra, expected) => {
    // Act
    const problems = problemsOf({ timeseriesdbConfig: { enable: true, version, ...extra } });

    // Assess
    expect(problems).toEqual(expected);
  });

  it("requires the v1 user name when v1 authentication is on", () => {
    // Act
    const problems = problemsOf({
      timeseriesdbConfig: { enable: true, version: 1, v1Config: { dbName: "d", auth: { enable: true } } },
    });

    // Assess
    expect(problems).toEqual(["Service.timeseriesdbConfig.v1Config.auth.username: required"]);
  });

  it("rejects versions other than 1, 2 and 3", () => {
    // Act
    const problems = problemsOf({ timeseriesdbConfig: { enable: true, version: 4 } });

    // Assess
    expect(problems).toEqual(["Service.timeseriesdbConfig.version: must be 1, 2 or 3"]);
  });

  it.each(["10d", "30m", "1h", "0", "INF", "1h30m"])("accepts the retention duration %s", (duration) => {
    expect(
      problemsOf({
        timeseriesdbConfig: {
          enable: true,
          version: 1,
          v1Config: { dbName: "d", retentionPolicy: { duration } },
        },
      }),
    ).toEqual([]);
  });

  it.each(["-1d", "10 days", "", "1x"])("rejects the retention duration %j", (retentionDuration) => {
    expect(
      problemsOf({
        timeseriesdbConfig: {
          enable: true,
          version: 3,
          v3Config: { database: "d", token: "t", retentionDuration },
        },
      }),
    ).toEqual([
      'Service.timeseriesdbConfig.v3Config.retentionDuration: must be a duration such as "10d", "30m", "1h", "0" or "INF"',
    ]);
  });

  it("is validated when audit events are written to it, even with enable false", () => {
    // Act
    const viaDestination = problemsOf({
      auditEvents: { destination: { type: "parquet,timeseriesdb" } },
      timeseriesdbConfig: { enable: false, version: 3 },
    });
    const viaQueueMetrics = problemsOf({
      auditEvents: { queue: { queueMetrics: { timeseriesdb: { enable: true } } } },
      timeseriesdbConfig: { enable: false, version: 1, host: "<host>" },
    });

    // Assess
    expect(viaDestination).toEqual([
      "Service.timeseriesdbConfig.v3Config.database: required",
      "Service.timeseriesdbConfig.v3Config.token: required",
    ]);
    expect(viaQueueMetrics).toEqual([
      'Service.timeseriesdbConfig.host: "<host>" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      "Service.timeseriesdbConfig.v1Config.dbName: required",
    ]);
  });
});

describe("the observability platform section", () => {
  it("is validated when a REST observability endpoint is enabled, whatever its own flag", () => {
    // Act
    const problems = problemsOf({
      restServer: { endpointsEnable: { observabilityMetric: true } },
      obsPlatform: { enable: false, metric: { url: "<metric url>" } },
    });

    // Assess
    expect(problems).toEqual(["Service.obsPlatform.metric.url: must be an http(s) URL"]);
  });

  it("reports a non-boolean enable once even when another feature makes it validated", () => {
    expect(
      problemsOf({
        restServer: { endpointsEnable: { observabilityEvent: true } },
        obsPlatform: { enable: "yes" },
      }),
    ).toEqual(['Service.obsPlatform.enable: expected boolean, received "yes"']);
  });

  it("is not validated when nothing uses it", () => {
    expect(problemsOf({ obsPlatform: { enable: false, metric: { url: "<metric url>" } } })).toEqual([]);
  });
});

describe("the task events section's broker messages, which serve the Qlik Cloud tenants too", () => {
  const tenants = [
    {
      name: "eu",
      url: "https://eu.example.qlikcloud.com",
      auth: { apiKey: "api-key-1" },
      webhook: { enable: true, secret: "webhook-secret-0123456789abcdef-xyz" },
    },
  ];
  const broker = { enable: true, brokerHost: "127.0.0.1", brokerPort: 1883 };
  const sendToMQTT = { enable: true, taskFailureTopic: "cloud/failed" };

  it("keeps taskEvents.sendToMQTT with the tenants and the broker on, while the task-event listener is off", () => {
    // Act
    const config = parseOk({
      qlikCloud: { enable: true, tenants },
      mqttConfig: broker,
      taskEvents: { enable: false, sendToMQTT },
    });

    // Assess
    expect(config.taskEvents.enable).toBe(false);
    expect(config.taskEvents.sendToMQTT).toMatchObject(sendToMQTT);
    expect(cloudRunsPublish(config)).toBe(true);
  });

  it("takes its defaults, unchecked, when neither the listener nor the tenants are on", () => {
    // Act
    const config = parseOk({
      mqttConfig: broker,
      taskEvents: { enable: false, sendToMQTT: { enable: true, taskFailureTopic: 42 } },
    });

    // Assess
    expect(config.taskEvents.sendToMQTT.enable).toBe(false);
    expect(cloudRunsPublish(config)).toBe(false);
  });
});
