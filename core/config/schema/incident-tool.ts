/**
 * incidentTool.newRelic: failed and aborted reloads sent to the observability platform as events
 * and log entries, under Butler's keys so that a Butler file converts as it is. The accounts are
 * named here and looked up in thirdPartyToolsCredentials.obsPlatform. Off by default; validated
 * only when on.
 */
import { alertBudget, alertRateLimit, scriptLogLines } from "./alert-common.ts";
import { bool, httpUrl, list, nameValueList, nonEmptyStr, requiredStr, section } from "./primitives.ts";

/** Where an operator's own credentials go: the kinds' shared header lists. */
const HEADER_HINT =
  "send them as a header in reloadTaskFailure.sharedSettings.header and reloadTaskAborted.sharedSettings.header";

/** Which accounts get a kind's event or log: a task custom property's values and a fixed list. */
const sendToAccount = (customPropertyName: string) =>
  section({
    byCustomProperty: section({ enable: bool(false), customPropertyName: nonEmptyStr(customPropertyName) }),
    always: section({ enable: bool(false), account: list(requiredStr) }),
  });

/** Static attributes, and whether the task's and app's tags become `qs_taskTag_<tag>` / `qs_appTag_<tag>`. */
const attribute = () =>
  section({
    static: nameValueList(),
    dynamic: section({ useAppTags: bool(true), useTaskTags: bool(true) }),
  });

const newRelicKind = (word: "Failed" | "Aborted") =>
  section({
    destination: section({
      event: section({
        enable: bool(false),
        sendToAccount: sendToAccount(`Butler_${word}Task_Event_NewRelicAccount`),
        attribute: attribute(),
      }),
      log: section({
        enable: bool(false),
        tailScriptLogLines: scriptLogLines(20),
        sendToAccount: sendToAccount(`Butler_${word}Task_Log_NewRelicAccount`),
        attribute: attribute(),
      }),
    }),
    sharedSettings: section({
      rateLimit: alertRateLimit(15),
      header: nameValueList(),
      attribute: section({ static: nameValueList() }),
    }),
  });

/**
 * A watched Windows service's change of state (serviceMonitor), under Butler's keys: an event
 * and/or a log entry to the accounts listed (and those of `destinationAccount`), for the states
 * `monitorServiceState` switches on (`stopped` also covers the paused and pending states: the
 * service is not running). One per service within `rateLimit` seconds.
 */
const serviceMonitor = () =>
  section({
    destination: section({
      event: section({ enable: bool(false), sendToAccount: list(requiredStr) }),
      log: section({ enable: bool(false), sendToAccount: list(requiredStr) }),
    }),
    monitorServiceState: section({
      running: section({ enable: bool(true) }),
      stopped: section({ enable: bool(true) }),
    }),
    rateLimit: alertRateLimit(30),
    attribute: section({ static: nameValueList() }),
  });

export const newRelicSchema = section({
  enable: bool(false),
  maxAlertsPerMinute: alertBudget(120),
  /** Accounts that get every event or log entry, besides those each kind selects. */
  destinationAccount: section({ event: list(requiredStr), log: list(requiredStr) }),
  url: section({
    event: httpUrl("https://insights-collector.eu01.nr-data.net", HEADER_HINT),
    log: httpUrl("https://log-api.eu.newrelic.com/log/v1", HEADER_HINT),
  }),
  reloadTaskFailure: newRelicKind("Failed"),
  reloadTaskAborted: newRelicKind("Aborted"),
  serviceMonitor: serviceMonitor(),
});

export const incidentToolSchema = section({ newRelic: newRelicSchema });
