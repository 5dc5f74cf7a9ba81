/**
 * migrate-config's converter on a Butler configuration (a whole site's file in Butler's
 * structure): every section lands where Steward keeps it, every key left out is named with its
 * reason, the switches Butler implied are written with a note, and the result passes the
 * config parser with every switch on and off.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Config, checkConfigText } from "../../../../../core/config/index.ts";
import { migrateConfigText } from "../../../../../core/config/migrate/convert.ts";
import { butlerFixture } from "../../../../helpers/butler-config.ts";
import { butlerSosFixture, withEverySwitch } from "../../../../helpers/butler-sos-config.ts";

const OPTIONS = { sourceName: "butler.yaml", convertedBy: "steward 15.0.0" };

function migrate(text: string) {
  const result = migrateConfigText(text, OPTIONS);
  if (!result.ok) throw new Error(result.message);
  return result;
}

function accepted(text: string): Config {
  const checked = checkConfigText(text, "converted.yaml", {});
  if (!checked.ok) throw new Error(checked.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return checked.config;
}

function at(tree: unknown, path: string): unknown {
  let node = tree;
  for (const key of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

/** Butler's endpoint switches → Steward's (restServerEndpointsEnable → restServer.endpointsEnable). */
const ENDPOINTS: [string, string][] = [
  ["apiListEnabledEndpoints", "apiListEnabledEndpoints"],
  ["base62ToBase16", "base62ToBase16"],
  ["base16ToBase62", "base16ToBase62"],
  ["butlerping", "ping"],
  ["createDir", "createDir"],
  ["createDirQVD", "createDirTableData"],
  ["fileDelete", "fileDelete"],
  ["fileMove", "fileMove"],
  ["fileCopy", "fileCopy"],
  ["keyValueStore", "keyValueStore"],
  ["mqttPublishMessage", "mqttPublishMessage"],
  ["newRelic.postNewRelicMetric", "observabilityMetric"],
  ["newRelic.postNewRelicEvent", "observabilityEvent"],
  ["scheduler.createNewSchedule", "scheduleCreate"],
  ["scheduler.getSchedule", "scheduleGet"],
  ["scheduler.getScheduleStatusAll", "scheduleStatus"],
  ["scheduler.deleteSchedule", "scheduleDelete"],
  ["scheduler.startSchedule", "scheduleStart"],
  ["scheduler.stopSchedule", "scheduleStop"],
  ["senseAppReload", "appReload"],
  ["senseAppDump", "appDump"],
  ["senseListApps", "appList"],
  ["senseStartTask", "reloadTaskStart"],
  ["slackPostMessage", "chatPostMessage"],
];

/** Where each Butler setting lands, Butler path → Steward path (the value unchanged). */
const CONVERTED: [string, string][] = [
  ["logLevel", "logLevel"],
  ["qlikSenseCloud.enable", "qlikCloud.enable"],
  ["qlikSenseCloud.event.mqtt.tenant.tenantUrl", "qlikCloud.tenants.0.url"],
  ["qlikSenseCloud.event.mqtt.tenant.auth.jwt.token", "qlikCloud.tenants.0.auth.apiKey"],
  ["fileLogging", "fileLogging"],
  ["logDirectory", "logDirectory"],
  ["systemInfo", "systemInfo"],
  ["configVisualisation", "configVisualisation"],
  ["heartbeat", "heartbeat"],
  ["dockerHealthCheck", "containerHealthCheck"],
  ["uptimeMonitor.frequency", "uptimeMonitor.frequency"],
  ["uptimeMonitor.storeInInfluxdb.enable", "uptimeMonitor.storeInTimeseriesdb.serviceMemoryUsage"],
  ["uptimeMonitor.storeNewRelic.destinationAccount", "uptimeMonitor.storeObsPlatform.destinationAccount"],
  [
    "uptimeMonitor.storeNewRelic.metric.dynamic.butlerUptime",
    "uptimeMonitor.storeObsPlatform.metric.dynamic.serviceUptime",
  ],
  [
    "uptimeMonitor.storeNewRelic.attribute.dynamic.butlerVersion",
    "uptimeMonitor.storeObsPlatform.attribute.dynamic.serviceVersion",
  ],
  ["thirdPartyToolsCredentials.newRelic", "thirdPartyToolsCredentials.obsPlatform"],
  ["influxDb.enable", "timeseriesdbConfig.enable"],
  ["influxDb.hostIP", "timeseriesdbConfig.host"],
  ["influxDb.hostPort", "timeseriesdbConfig.port"],
  ["influxDb.auth", "timeseriesdbConfig.v1Config.auth"],
  ["influxDb.dbName", "timeseriesdbConfig.v1Config.dbName"],
  ["influxDb.retentionPolicy", "timeseriesdbConfig.v1Config.retentionPolicy"],
  ["influxDb.tag.static", "taskEvents.timeseriesdb.tag.static"],
  [
    "influxDb.reloadTaskFailure.tailScriptLogLines",
    "taskEvents.timeseriesdb.reloadTaskFailure.tailScriptLogLines",
  ],
  ["influxDb.reloadTaskFailure.tag.static", "taskEvents.timeseriesdb.reloadTaskFailure.tag.static"],
  [
    "influxDb.reloadTaskSuccess.byCustomProperty",
    "taskEvents.timeseriesdb.reloadTaskSuccess.byCustomProperty",
  ],
  ["influxDb.userSyncTaskSuccess.tag.static", "taskEvents.timeseriesdb.userSyncTaskSuccess.tag.static"],
  ["influxDb.externalProgramTaskFailure.enable", "taskEvents.timeseriesdb.externalProgramTaskFailure.enable"],
  ["influxDb.distributeTaskFailure.enable", "taskEvents.timeseriesdb.distributeTaskFailure.enable"],
  ["influxDb.preloadTaskSuccess.enable", "taskEvents.timeseriesdb.preloadTaskSuccess.enable"],
  ["udpServerConfig.enable", "taskEvents.enable"],
  ["udpServerConfig.serverHost", "taskEvents.udpServerConfig.serverHost"],
  ["udpServerConfig.portTaskFailure", "taskEvents.udpServerConfig.portTaskEvents"],
  ["mqttConfig.enable", "mqttConfig.enable"],
  ["mqttConfig.brokerHost", "mqttConfig.brokerHost"],
  ["mqttConfig.brokerPort", "mqttConfig.brokerPort"],
  ["mqttConfig.taskFailureTopic", "taskEvents.sendToMQTT.taskFailureTopic"],
  ["mqttConfig.taskFailureFullTopic", "taskEvents.sendToMQTT.taskFailureFullTopic"],
  ["mqttConfig.taskFailureSendFull", "taskEvents.sendToMQTT.taskFailureSendFull"],
  ["mqttConfig.taskAbortedTopic", "taskEvents.sendToMQTT.taskAbortedTopic"],
  ["mqttConfig.taskAbortedFullTopic", "taskEvents.sendToMQTT.taskAbortedFullTopic"],
  ["mqttConfig.taskAbortedSendFull", "taskEvents.sendToMQTT.taskAbortedSendFull"],
  // Task starts from the broker: Butler's topics and its start filter keep their names and places.
  ["mqttConfig.subscriptionRootTopic", "mqttConfig.subscriptionRootTopic"],
  ["mqttConfig.taskStartTopic", "mqttConfig.taskStartTopic"],
  // The task-event listener's status topic keeps Butler's key.
  ["mqttConfig.taskFailureServerStatusTopic", "mqttConfig.taskFailureServerStatusTopic"],
  ["startTaskFilter", "startTaskFilter"],
  // The platform's script logs on disk: the directory and the switch, under taskEvents.
  ["scriptLog.storeOnDisk.clientManaged.reloadTaskFailure.enable", "taskEvents.scriptLogFiles.enable"],
  [
    "scriptLog.storeOnDisk.clientManaged.reloadTaskFailure.logDirectory",
    "taskEvents.scriptLogFiles.directory",
  ],
  // The Qlik Cloud apps' script logs on disk: the same, under qlikCloud.
  ["scriptLog.storeOnDisk.qsCloud.appReloadFailure.enable", "qlikCloud.scriptLogFiles.enable"],
  ["scriptLog.storeOnDisk.qsCloud.appReloadFailure.logDirectory", "qlikCloud.scriptLogFiles.directory"],
  ["qlikSenseUrls", "qlikSenseUrls"],
  ["genericUrls", "genericUrls"],
  ["cert", "cert"],
  ["configQRS.host", "platform.host"],
  ["configQRS.port", "platform.repositoryPort"],
  ["configQRS.rejectUnauthorized", "platform.rejectUnauthorized"],
  ["configEngine.port", "platform.enginePort"],
  ["restServerConfig.enable", "restServer.enable"],
  ["restServerConfig.serverHost", "restServer.host"],
  ["restServerConfig.serverPort", "restServer.port"],
  ["restServerConfig.tls.enable", "restServer.tls.enable"],
  ["restServerConfig.tls.cert", "restServer.tls.cert"],
  ["restServerConfig.tls.key", "restServer.tls.key"],
  ...ENDPOINTS.map(([from, to]): [string, string] => [
    `restServerEndpointsEnable.${from}`,
    `restServer.endpointsEnable.${to}`,
  ]),
  [
    "restServerEndpointsConfig.newRelic.postNewRelicMetric.destinationAccount",
    "restServer.observability.metric.destinationAccount",
  ],
  [
    "restServerEndpointsConfig.newRelic.postNewRelicEvent.destinationAccount",
    "restServer.observability.event.destinationAccount",
  ],
  ["fileCopyApprovedDirectories", "fileOperations.copyApprovedDirectories"],
  ["fileMoveApprovedDirectories", "fileOperations.moveApprovedDirectories"],
  ["fileDeleteApprovedDirectories", "fileOperations.deleteApprovedDirectories"],
  ["configDirectories.qvdPath", "fileOperations.tableDataDirectory"],
  ["scheduler.enable", "scheduler.enable"],
  ["scheduler.configfile", "scheduler.storeFile"],
  ["keyValueStore", "keyValueStore"],
  ["slackNotification.restMessage.webhookURL", "chat.webhookURL"],
  // The server licence's webhooks and their switches keep Butler's keys.
  ["webhookNotification.qlikSenseServerLicenseMonitor", "webhookNotification.qlikSenseServerLicenseMonitor"],
  [
    "webhookNotification.qlikSenseServerLicenseExpiryAlert",
    "webhookNotification.qlikSenseServerLicenseExpiryAlert",
  ],
  ["qlikSenseLicense.serverLicenseMonitor.destination.webhook", "licenseMonitor.serverLicense.webhook"],
  ...["enable", "destinationAccount", "url", "reloadTaskFailure"].map((key): [string, string] => [
    `incidentTool.newRelic.${key}`,
    `incidentTool.newRelic.${key}`,
  ]),
  // The Windows service monitor keeps Butler's keys; its destination switches move to what they switched.
  ...["enable", "frequency", "monitor"].map((key): [string, string] => [
    `serviceMonitor.${key}`,
    `serviceMonitor.${key}`,
  ]),
  ["serviceMonitor.alertDestination.influxDb.enable", "serviceMonitor.timeseriesdb.enable"],
  ["serviceMonitor.alertDestination.mqtt.enable", "serviceMonitor.sendToMQTT.enable"],
  ["serviceMonitor.alertDestination.webhook.enable", "webhookNotification.serviceMonitor.enable"],
  ...["serviceRunningTopic", "serviceStoppedTopic", "serviceStatusTopic"].map((key): [string, string] => [
    `mqttConfig.${key}`,
    `serviceMonitor.sendToMQTT.${key}`,
  ]),
  ...["emailNotification", "teamsNotification", "slackNotification"].flatMap((section) =>
    ["serviceStopped", "serviceStarted"].flatMap((block): [string, string][] => [
      [`${section}.${block}.rateLimit`, `${section}.${block}.rateLimit`],
      [
        `serviceMonitor.alertDestination.${section.replace("Notification", "")}.enable`,
        `${section}.${block}.enable`,
      ],
    ]),
  ),
  ["emailNotification.serviceStopped.recipients", "emailNotification.serviceStopped.recipients"],
  ["teamsNotification.serviceStarted.webhookURL", "teamsNotification.serviceStarted.webhookURL"],
  ["slackNotification.serviceStopped.channel", "slackNotification.serviceStopped.channel"],
  ["webhookNotification.serviceMonitor.rateLimit", "webhookNotification.serviceMonitor.rateLimit"],
  [
    "incidentTool.newRelic.serviceMonitor.monitorServiceState",
    "incidentTool.newRelic.serviceMonitor.monitorServiceState",
  ],
];

/** What the fixture's conversion leaves out (each with its reason, checked below). */
const LEFT_OUT = [
  "Butler.uptimeMonitor.storeNewRelic.url",
  "Butler.uptimeMonitor.storeNewRelic.header",
  // SIGNL4, which Steward has no destination for.
  "Butler.incidentTool.signl4",
  "Butler.mqttConfig.azureEventGrid",
  "Butler.mqttConfig.qlikSenseCloud",
  "Butler.restServerConfig.backgroundServerPort",
  "Butler.restServerApiDocGenerate",
  ...[
    "reloadTaskFailure",
    "reloadTaskSuccess",
    "userSyncTaskSuccess",
    "externalProgramTaskSuccess",
    "externalProgramTaskFailure",
    "distributeTaskSuccess",
    "distributeTaskFailure",
    "preloadTaskSuccess",
  ].map((kind) => `Butler.influxDb.${kind}.tag.dynamic`),
  // The licence monitor runs on one schedule and writes where licenseMonitor says.
  "Butler.qlikSenseVersion.versionMonitor.frequency",
  "Butler.qlikSenseVersion.versionMonitor.rejectUnauthorized",
  "Butler.qlikSenseLicense.serverLicenseMonitor.frequency",
  "Butler.qlikSenseLicense.licenseRelease.frequency",
  ...["serverLicenseMonitor", "licenseMonitor", "licenseRelease"].flatMap((monitor) =>
    ["enable", "tag"].map((key) => `Butler.qlikSenseLicense.${monitor}.destination.influxDb.${key}`),
  ),
  "Butler.qlikSenseLicense.serverLicenseMonitor.destination.mqtt.sendAlert",
  "Butler.qlikSenseLicense.serverLicenseMonitor.destination.mqtt.sendRecurring",
  "Butler.restServerEndpointsEnable.scheduler.updateSchedule",
  ...["postNewRelicMetric", "postNewRelicEvent"].flatMap((endpoint) =>
    ["url", "header", "attribute"].map(
      (key) => `Butler.restServerEndpointsConfig.newRelic.${endpoint}.${key}`,
    ),
  ),
  "Butler.configEngine.engineVersion",
  "Butler.configEngine.useSSL",
  "Butler.configQRS.authentication",
  "Butler.configQRS.useSSL",
  "Butler.configQRS.host",
  "Butler.configQRS.userHeader",
  "Butler.configQRS.rejectUnauthorized",
];

describe("migrate-config on a Butler file: where each section lands", () => {
  const source = butlerFixture();
  const result = migrate(source);
  const before = (parse(source) as { Butler: Record<string, unknown> }).Butler;
  const after = (parse(result.text) as { Service: unknown }).Service;

  it("tells Butler from Butler SOS by the top-level key", () => {
    expect(result.product).toBe("Butler");
    expect(parse(result.text)).not.toHaveProperty("Butler");
    expect(migrateConfigText(butlerSosFixture("complete.yaml"), OPTIONS)).toMatchObject({
      product: "Butler SOS",
    });
  });

  it("writes every converted setting at Steward's place with Butler's value", () => {
    for (const [from, to] of CONVERTED) {
      expect(at(before, from), from).toBeDefined();
      expect(at(after, to), `${from} → ${to}`).toEqual(at(before, from));
    }
  });

  it("converts, changes with a note, or leaves out with a reason every top-level section", () => {
    const placed = new Set(CONVERTED.map(([from]) => from.split(".")[0]));
    const dropped = new Set(result.dropped.map((key) => key.path.split(".")[1]));
    const noted = new Set(result.notes.map((note) => note.path.split(".")[1]));
    for (const section of Object.keys(before)) {
      expect(placed.has(section) || dropped.has(section) || noted.has(section), section).toBe(true);
    }
  });

  it("lists every key it leaves out with a reason a person reads, and keeps no other out", () => {
    expect(result.dropped.map((key) => key.path).sort()).toEqual([...LEFT_OUT].sort());
    for (const key of result.dropped) expect(key.reason, key.path).toMatch(/^\S.{20,}/);
    expect(
      result.dropped.find((key) => key.path === "Butler.restServerConfig.backgroundServerPort")?.reason,
    ).toMatch(/one listener/);
  });

  it("names Butler, the source and the left-out keys in the header", () => {
    expect(result.text).toMatch(/^# Butler configuration butler\.yaml\.$/m);
    expect(result.text).toMatch(/^# {3}Butler\.restServerConfig\.backgroundServerPort: .*one listener/m);
  });
});

describe("migrate-config on a Butler file: what Butler implied", () => {
  const result = migrate(butlerFixture());
  const after = (parse(result.text) as { Service: unknown }).Service;
  const note = (path: string) => result.notes.find((n) => n.path === path)?.message;

  it("takes the platform user from the X-Qlik-User header", () => {
    expect(at(after, "platform.userHeader")).toBe("UserDirectory=Internal;UserId=sa_repository");
    expect(note("Service.platform.userHeader")).toContain(
      "configQRS.headers.static and configEngine.headers.static",
    );
    expect(result.notes.filter((n) => n.path === "Service.platform.userHeader")).toHaveLength(1);
  });

  it("leaves out the other headers, saying Steward sends the user header only", () => {
    const other = migrate(
      "Butler:\n  configQRS:\n    headers:\n      static:\n        - name: X-Qlik-User\n          value: UserDirectory=NORDLYS;UserId=svc_steward\n        - name: X-Trace\n          value: on\n",
    );
    expect(at(parse(other.text), "Service.platform")).toEqual({
      userHeader: "UserDirectory=NORDLYS;UserId=svc_steward",
    });
    expect(other.dropped).toEqual([
      {
        path: "Butler.configQRS.headers",
        reason: expect.stringContaining("X-Qlik-User (platform.userHeader)"),
      },
    ]);
  });

  it("writes the time-series database version Butler spoke, 1", () => {
    expect(at(after, "timeseriesdbConfig.version")).toBe(1);
    expect(note("Service.timeseriesdbConfig.version")).toContain("InfluxDB 1.x");
  });

  it("sends task events to the broker as Butler did with its broker connection on", () => {
    expect(at(after, "taskEvents.sendToMQTT.enable")).toBe(true);
    expect(note("Service.taskEvents.sendToMQTT.enable")).toContain("mqttConfig.enable");
  });

  it("starts tasks from Butler's start topic with Butler's start filter, saying how Steward applies the filter", () => {
    expect(at(after, "mqttConfig.taskStartTopic")).toBe("nordlys/qliksense/start_task");
    expect(at(after, "mqttConfig.subscriptionRootTopic")).toBe("nordlys/qliksense/#");
    expect(at(after, "startTaskFilter.allowTask.customProperty")).toEqual([
      { name: "taskGroup", value: "nightly" },
    ]);
    expect(note("Butler.startTaskFilter.enable")).toContain("mqttConfig.taskStartTopic");
  });

  it("switches off telemetry and the audit ingest API, and says why", () => {
    expect(at(after, "anonTelemetry")).toBe(false);
    expect(note("Service.anonTelemetry")).toContain("Butler sent telemetry to its vendor");
    expect(at(after, "auditEvents.enable")).toBe(false);
    expect(note("Service.auditEvents.enable")).toContain("Butler has no audit ingest API");
  });

  it("keeps Butler's REST API on 0.0.0.0 answering without a token, saying so in the file and the notes", () => {
    expect(at(after, "restServer.host")).toBe("0.0.0.0");
    expect(at(after, "restServer.allowUnauthenticated")).toBe(true);
    expect(result.text).toContain(
      "    # Added by migrate-config: Butler served the REST API on 0.0.0.0 without a token, as this line\n",
    );
    expect(note("Service.restServer.allowUnauthenticated")).toContain("set restServer.apiToken");
    expect(note("Service.restServer.allowedHosts")).toContain("list the names clients use to reach it");
  });

  it("writes no allowUnauthenticated for a REST API with a token or on loopback", () => {
    for (const extra of ["    serverHost: 127.0.0.1\n", "    serverHost: 0.0.0.0\n    apiToken: t\n"]) {
      const converted = migrate(`Butler:\n  restServerConfig:\n    enable: true\n${extra}`);
      expect(at(parse(converted.text), "Service.restServer.allowUnauthenticated")).toBeUndefined();
    }
  });

  it("keeps the REST API off when Butler's restServerConfig did not switch it on", () => {
    const bare = migrate("Butler:\n  restServerEndpointsEnable:\n    butlerping: true\n");
    expect(at(parse(bare.text), "Service.restServer")).toEqual({
      endpointsEnable: { ping: true },
      enable: false,
    });
    expect(bare.notes.map((n) => n.path)).toContain("Service.restServer.enable");
  });
});

describe("migrate-config on a Butler file: check-config", () => {
  it.each([
    ["as written", (text: string) => text],
    ["with every switch on", (text: string) => withEverySwitch(text, true)],
    ["with every switch off", (text: string) => withEverySwitch(text, false)],
  ])("gives a file the config parser accepts, %s", (_name, variant) => {
    const config = accepted(migrate(variant(butlerFixture())).text);
    expect(config.platform.repositoryPort).toBe(4242);
  });

  it("gives the parsed values Butler had", () => {
    const config = accepted(migrate(butlerFixture()).text);
    expect(config.taskEvents.udpServerConfig.portTaskEvents).toBe(9998);
    expect(config.restServer.endpointsEnable.reloadTaskStart).toBe(true);
    expect(config.fileOperations.tableDataDirectory).toBe("/data/qvd");
    expect(config.chat.webhookURL).toBe("https://hooks.slack.example/services/T000/B000/rest");
    expect(config.startTaskFilter).toEqual({
      enable: true,
      allowTask: {
        taskId: ["5a1f2b7e-3c4d-4e5f-8a9b-0c1d2e3f4a5b"],
        tag: ["Start via API"],
        customProperty: [{ name: "taskGroup", value: "nightly" }],
      },
    });
    expect(config.mqttConfig.taskStartTopic).toBe("nordlys/qliksense/start_task");
  });

  it("gives Butler's reload alerts to the observability platform, with their account, once switched on", () => {
    const config = accepted(migrate(withEverySwitch(butlerFixture(), true)).text);
    const failure = config.incidentTool.newRelic.reloadTaskFailure;
    expect(config.incidentTool.newRelic.enable).toBe(true);
    expect(failure.destination.event.sendToAccount.always.account).toEqual(["Nordlys prod"]);
    expect(failure.sharedSettings.header).toEqual([{ name: "X-Team", value: "bi-platform" }]);
    expect(config.incidentTool.newRelic.url.log).toBe("https://log-api.eu.newrelic.com/log/v1");
    expect(config.thirdPartyToolsCredentials.obsPlatform[0]?.accountName).toBe("Nordlys prod");
  });
});
