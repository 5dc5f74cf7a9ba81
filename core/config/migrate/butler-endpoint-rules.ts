/**
 * Butler's REST API settings as Steward's `restServer`: the listener, the endpoint switches
 * under Steward's endpoint names (the paths and bodies are in the handbook's table), and the
 * observability accounts the event and metric endpoints post to. Paths are relative to `Butler`.
 */
import { drop, lift, type MigrationRule, move, rename } from "./product-rules.ts";

const OBSERVABILITY_CONNECTION =
  "Steward's observability endpoints post with the URL, headers and static attributes of obsPlatform.event and obsPlatform.metric; set them there";

/** Butler's endpoint switch → Steward's, for the switches whose names differ. */
const ENDPOINT_NAMES: Readonly<Record<string, string>> = {
  butlerping: "ping",
  createDirQVD: "createDirTableData",
  "newRelic.postNewRelicMetric": "observabilityMetric",
  "newRelic.postNewRelicEvent": "observabilityEvent",
  "scheduler.createNewSchedule": "scheduleCreate",
  "scheduler.getSchedule": "scheduleGet",
  "scheduler.getScheduleStatusAll": "scheduleStatus",
  "scheduler.deleteSchedule": "scheduleDelete",
  "scheduler.startSchedule": "scheduleStart",
  "scheduler.stopSchedule": "scheduleStop",
  senseAppReload: "appReload",
  senseAppDump: "appDump",
  senseListApps: "appList",
  senseStartTask: "reloadTaskStart",
  slackPostMessage: "chatPostMessage",
};

export const BUTLER_ENDPOINT_RULES: readonly [string, MigrationRule][] = [
  ["restServerConfig", rename("restServer")],
  ["restServerConfig.serverHost", rename("host")],
  ["restServerConfig.serverPort", rename("port")],
  // restServerConfig.tls keeps its keys (enable, cert, key, ca); butler-rules.ts turns `ca: null` into "".
  [
    "restServerConfig.backgroundServerPort",
    drop(
      "Steward serves the REST API on one listener (restServer.host and port); Butler's second port only carried requests from its public listener to its internal one",
    ),
  ],
  ["restServerEndpointsEnable", move("restServer.endpointsEnable")],
  ["restServerEndpointsEnable.newRelic", lift],
  ["restServerEndpointsEnable.scheduler", lift],
  ...Object.entries(ENDPOINT_NAMES).map(([from, to]): [string, MigrationRule] => [
    `restServerEndpointsEnable.${from}`,
    rename(to),
  ]),
  [
    "restServerEndpointsEnable.scheduler.updateSchedule",
    drop("Butler served no endpoint for it; Steward changes a schedule by deleting and creating it"),
  ],
  ["restServerEndpointsConfig", move("restServer.observability")],
  ["restServerEndpointsConfig.newRelic", lift],
  ["restServerEndpointsConfig.newRelic.postNewRelicMetric", rename("metric")],
  ["restServerEndpointsConfig.newRelic.postNewRelicEvent", rename("event")],
  ...["postNewRelicMetric", "postNewRelicEvent"].flatMap((endpoint) =>
    ["url", "header", "attribute"].map((key): [string, MigrationRule] => [
      `restServerEndpointsConfig.newRelic.${endpoint}.${key}`,
      drop(OBSERVABILITY_CONNECTION),
    ]),
  ),
  [
    "restServerApiDocGenerate",
    drop("a mode of Butler's that writes its API documentation files; Steward has no such mode"),
  ],
];
