/**
 * The rules of `steward migrate-config` for a Butler configuration (top key `Butler`): the REST
 * API, the connections, the reload-task sections and the licence monitors. Paths are relative to
 * `Butler`, with `[]` for list items; the rule kinds are described in ./product-rules.ts. The
 * reload-task settings Butler spread over `udpServerConfig`, `influxDb` and `mqttConfig` move to
 * `taskEvents`; the four licence and version monitors fold into `licenseMonitor`, read on one
 * schedule; the alert sections keep Butler's names and shapes.
 */

import { TASK_POINT_KINDS, TASK_TOPIC_KEYS } from "../schema/task-events.ts";
import { finishButler, prepareButler } from "./butler-additions.ts";
import { BUTLER_ENDPOINT_RULES } from "./butler-endpoint-rules.ts";
import { BUTLER_LICENCE_RULES } from "./butler-licence-rules.ts";
import {
  anonTelemetryRule,
  drop,
  lift,
  type MigrationRule,
  move,
  type ProductRules,
  rename,
  type ValueTransform,
} from "./product-rules.ts";

const CLOUD =
  "Steward takes a tenant's signed webhook itself (qlikCloud.tenants, converted from qlikSenseCloud; docs/qlik-cloud.md), so the HTTPS-to-MQTT gateway and its topics are not needed";
const CERTIFICATES_ONLY =
  "Steward always calls the platform over TLS with the client certificates of cert; there is nothing to choose";
const UPTIME_CONNECTION =
  "Steward sends uptime metrics with the URL and headers of obsPlatform.metric (url, header); set them there";
const NEVER_WRITTEN =
  "Butler never wrote app or task tags from this switch; Steward's points carry the static tags only";

/**
 * Butler's task-point blocks under `influxDb` and topic keys under `mqttConfig` keep their names
 * under `taskEvents.timeseriesdb` and `taskEvents.sendToMQTT`, so the lists are those sections'.
 */
const taskEventRules: [string, MigrationRule][] = [
  ["udpServerConfig", move("taskEvents.udpServerConfig")],
  ["udpServerConfig.enable", move("taskEvents.enable")],
  ["udpServerConfig.portTaskFailure", rename("portTaskEvents")],
  ["influxDb.tag", move("taskEvents.timeseriesdb.tag")],
  ...TASK_POINT_KINDS.flatMap((kind): [string, MigrationRule][] => [
    [`influxDb.${kind}`, move(`taskEvents.timeseriesdb.${kind}`)],
    [`influxDb.${kind}.tag.dynamic`, drop(NEVER_WRITTEN)],
  ]),
  ...TASK_TOPIC_KEYS.map((key): [string, MigrationRule] => [
    `mqttConfig.${key}`,
    move(`taskEvents.sendToMQTT.${key}`),
  ]),
];

/**
 * Butler's disk copies of failed reloads' script logs: the platform's (`clientManaged`) become
 * `taskEvents.scriptLogFiles`, which writes them from the download the alerts already make; the
 * Qlik Cloud apps' (`qsCloud.appReloadFailure`) become `qlikCloud.scriptLogFiles`, written from
 * the download a tenant's failed run's alert makes.
 */
const scriptLogRules: [string, MigrationRule][] = [
  ["scriptLog", lift],
  ["scriptLog.storeOnDisk", lift],
  ["scriptLog.storeOnDisk.clientManaged", lift],
  ["scriptLog.storeOnDisk.clientManaged.reloadTaskFailure", move("taskEvents.scriptLogFiles")],
  ["scriptLog.storeOnDisk.clientManaged.reloadTaskFailure.logDirectory", rename("directory")],
  ["scriptLog.storeOnDisk.qsCloud", lift],
  ["scriptLog.storeOnDisk.qsCloud.appReloadFailure", move("qlikCloud.scriptLogFiles")],
  ["scriptLog.storeOnDisk.qsCloud.appReloadFailure.logDirectory", rename("directory")],
];

const connectionRules: [string, MigrationRule][] = [
  ["influxDb", rename("timeseriesdbConfig")],
  ["influxDb.hostIP", rename("host")],
  ["influxDb.hostPort", rename("port")],
  ["influxDb.auth", move("timeseriesdbConfig.v1Config.auth")],
  ["influxDb.dbName", move("timeseriesdbConfig.v1Config.dbName")],
  ["influxDb.retentionPolicy", move("timeseriesdbConfig.v1Config.retentionPolicy")],
  ["configEngine", move("platform")],
  ["configEngine.port", rename("enginePort")],
  [
    "configEngine.engineVersion",
    drop("Steward's engine client picks the protocol version itself; there is nothing to set"),
  ],
  ["configEngine.useSSL", drop(CERTIFICATES_ONLY)],
  ["configQRS", move("platform")],
  ["configQRS.port", rename("repositoryPort")],
  ["configQRS.authentication", drop(CERTIFICATES_ONLY)],
  ["configQRS.useSSL", drop(CERTIFICATES_ONLY)],
  ...["configEngine", "configQRS"].map((section): [string, MigrationRule] => [
    `${section}.headers`,
    drop(
      "Steward sends one header of its own, X-Qlik-User (platform.userHeader); other headers are not sent",
    ),
  ]),
  [
    "mqttConfig.azureEventGrid",
    drop(
      "Steward connects to any broker with mqttConfig's host, port, credentials and tls (certFile, keyFile); set those for Azure Event Grid",
    ),
  ],
  ...["serviceRunningTopic", "serviceStoppedTopic", "serviceStatusTopic"].map(
    (key): [string, MigrationRule] => [`mqttConfig.${key}`, move(`serviceMonitor.sendToMQTT.${key}`)],
  ),
  ["mqttConfig.qlikSenseCloud", drop(CLOUD)],
  ["thirdPartyToolsCredentials.newRelic", rename("obsPlatform")],
];

const generalRules: [string, MigrationRule][] = [
  ["dockerHealthCheck", rename("containerHealthCheck")],
  ["uptimeMonitor.storeInInfluxdb", rename("storeInTimeseriesdb")],
  // Butler's switch says whether its memory usage is written: Steward's says the same of its own.
  ["uptimeMonitor.storeInInfluxdb.enable", rename("serviceMemoryUsage")],
  ["uptimeMonitor.storeNewRelic", rename("storeObsPlatform")],
  ["uptimeMonitor.storeNewRelic.url", drop(UPTIME_CONNECTION)],
  ["uptimeMonitor.storeNewRelic.header", drop(UPTIME_CONNECTION)],
  ["uptimeMonitor.storeNewRelic.metric.dynamic.butlerMemoryUsage", rename("serviceMemoryUsage")],
  ["uptimeMonitor.storeNewRelic.metric.dynamic.butlerUptime", rename("serviceUptime")],
  ["uptimeMonitor.storeNewRelic.attribute.dynamic.butlerVersion", rename("serviceVersion")],
  ["scheduler.configfile", rename("storeFile")],
  ["fileCopyApprovedDirectories", move("fileOperations.copyApprovedDirectories")],
  ["fileMoveApprovedDirectories", move("fileOperations.moveApprovedDirectories")],
  ["fileDeleteApprovedDirectories", move("fileOperations.deleteApprovedDirectories")],
  ["configDirectories", lift],
  ["configDirectories.qvdPath", move("fileOperations.tableDataDirectory")],
];

const alertRules: [string, MigrationRule][] = [
  ["slackNotification.restMessage", lift],
  ["slackNotification.restMessage.webhookURL", move("chat.webhookURL")],
  [
    "incidentTool.signl4",
    drop(
      "Steward has no SIGNL4 destination; an outgoing webhook (webhookNotification) can call SIGNL4's webhook URL",
    ),
  ],
];

/**
 * Butler's Windows service monitor keeps its keys; its destination switches move to the `enable`
 * of what they switched: influxDb and mqtt to the section's own `timeseriesdb` and `sendToMQTT`,
 * webhook to its list's block (email, Teams, Slack and newRelic: butler-service-monitor.ts).
 */
const serviceMonitorRules: [string, MigrationRule][] = [
  ["serviceMonitor.alertDestination", lift],
  ["serviceMonitor.alertDestination.influxDb", move("serviceMonitor.timeseriesdb")],
  ["serviceMonitor.alertDestination.mqtt", move("serviceMonitor.sendToMQTT")],
  ["serviceMonitor.alertDestination.webhook", move("webhookNotification.serviceMonitor")],
];

const noCounterpart: [string, MigrationRule][] = [
  [
    "qlikSenseCloud",
    drop(
      "not converted: Steward alerts a tenant's failed reloads under the site's reloadTaskFailure blocks of each channel and links to the app in the tenant (docs/qlik-cloud.md); the tenant itself became qlikCloud.tenants",
    ),
  ],
];

/** Key rules by Butler path. */
const KEY_RULES: ReadonlyMap<string, MigrationRule> = new Map<string, MigrationRule>([
  ...generalRules,
  ...connectionRules,
  ...taskEventRules,
  ...scriptLogRules,
  ...BUTLER_ENDPOINT_RULES,
  ...alertRules,
  ...BUTLER_LICENCE_RULES,
  ...serviceMonitorRules,
  ...noCounterpart,
]);

const VALUE_RULES: ReadonlyMap<string, ValueTransform> = new Map([
  ["anonTelemetry", anonTelemetryRule("Butler")],
  [
    "restServerConfig.tls.ca",
    (value: unknown) =>
      value === null
        ? {
            value: "",
            note: 'Butler\'s null (no CA file) is "" in Steward: no intermediate certificates are sent',
          }
        : undefined,
  ],
]);

const BEHAVIOUR_NOTES: ReadonlyMap<string, string> = new Map([
  [
    "uptimeMonitor.storeInInfluxdb.enable",
    "Steward's own memory goes to the measurement steward_memory_usage (tags instance, version) instead of butler_memory_usage: update dashboards that read it",
  ],
  [
    "uptimeMonitor.storeNewRelic.enable",
    "Steward sends uptime metrics to the observability platform only when obsPlatform.enable is true as well",
  ],
  [
    "scriptLog.storeOnDisk.clientManaged.reloadTaskFailure.enable",
    "Steward names each file <taskId>-<executionId>.log in a folder of the run's UTC date (Butler: <date>_<time>_appId=…_taskId=….log by the node's local time), ends its lines with CRLF as the platform does, and removes files older than retentionDays (30) or over maxTotalBytes (1 GiB, oldest first), where Butler kept them all",
  ],
  [
    "startTaskFilter.enable",
    "Steward applies the list to the tasks published to mqttConfig.taskStartTopic too, and to each task a start names or selects: a task carrying a listed tag starts when named by id, a tag or custom property that is not listed still starts the tasks the list allows, and a refused task makes the REST call answer 403",
  ],
]);

const HEADER_NAMES = [
  "Butler → Service, restServerConfig → restServer, restServerEndpointsEnable → restServer.endpointsEnable",
  "(butlerping → ping, senseAppReload → appReload, …), configQRS/configEngine → platform, influxDb →",
  "timeseriesdbConfig, udpServerConfig → taskEvents.udpServerConfig, influxDb.<task kind> →",
  "taskEvents.timeseriesdb, mqttConfig.task…Topic → taskEvents.sendToMQTT, qlikSenseLicense and",
  "qlikSenseVersion → licenseMonitor, file…ApprovedDirectories → fileOperations, …",
];

export const BUTLER_RULES: ProductRules = {
  root: "Butler",
  product: "Butler",
  keyRules: KEY_RULES,
  valueRules: VALUE_RULES,
  behaviourNotes: BEHAVIOUR_NOTES,
  headerNames: HEADER_NAMES,
  prepare: prepareButler,
  finish: finishButler,
};
