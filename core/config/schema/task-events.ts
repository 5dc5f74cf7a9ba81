/**
 * taskEvents: the scheduler's reload-task events over UDP (failed, aborted, successful and
 * distribute runs), their de-duplication, and what Butler kept under `influxDb.*` and
 * `mqttConfig.*` for these events (here under `timeseriesdb` and `sendToMQTT`, written through
 * `timeseriesdbConfig` and `mqttConfig`). Off by default; validated only when on.
 */
import { udpCommonEntries } from "./platform-events.ts";
import { bool, int, nameValueList, nonEmptyStr, port, section } from "./primitives.ts";

/**
 * A task event spends most of its processing waiting for the repository: a run's final status and
 * its script log appear a moment after the event, so each run waits at least half a second for
 * its log. Waiting costs a timer, not CPU, so this queue processes twice as many runs at once as
 * the user- and log-event queues and holds five times as many: a data source that goes down fails
 * every task that reads it within the same minute, and that burst must be neither dropped nor
 * worked through ten at a time. Measured on 2026-11-27 (docs/performance.md): 200 failed runs
 * sent within a second were all processed in 6.4 s with 20 at once (12 s with 10); 30 or 50 at
 * once were faster but, with every alert sent, peaked above 150 MB. Each run in process holds at
 * most its script log (the platform client reads 16 MB of a body at most).
 */
const TASK_EVENT_QUEUE = { maxConcurrent: 20, maxSize: 1000 };

export const taskEventsUdpSchema = section({
  ...udpCommonEntries("task_events_queue", TASK_EVENT_QUEUE),
  portTaskEvents: port(9998),
});

/** `tag.static`: name/value tags added to every point of a kind (e.g. `qs_env`, which dashboards filter on). */
const staticTags = () => section({ static: nameValueList() });

/** A task type's own measurement: on or off, with its static tags. */
const kindPoints = () => section({ enable: bool(false), tag: staticTags() });

/**
 * `timeseriesdb`: the static tags of every point, then one block per task type and outcome that
 * gets a point, under Butler's names (`reloadTaskFailure`, ... `preloadTaskSuccess`).
 */
const timeseriesdbSchema = section({
  tag: staticTags(),
  reloadTaskFailure: section({
    enable: bool(false),
    tailScriptLogLines: int(20, 0, 10_000),
    tag: staticTags(),
  }),
  reloadTaskSuccess: section({
    enable: bool(false),
    allReloadTasks: section({ enable: bool(false) }),
    byCustomProperty: section({
      enable: bool(false),
      customPropertyName: nonEmptyStr("Butler_SuccessReloadTask_InfluxDB"),
      enabledValue: nonEmptyStr("Yes"),
    }),
    headScriptLogLines: int(15, 0, 10_000),
    tailScriptLogLines: int(25, 0, 10_000),
    tag: staticTags(),
  }),
  externalProgramTaskFailure: kindPoints(),
  externalProgramTaskSuccess: kindPoints(),
  userSyncTaskFailure: kindPoints(),
  userSyncTaskSuccess: kindPoints(),
  distributeTaskFailure: kindPoints(),
  distributeTaskSuccess: kindPoints(),
  preloadTaskFailure: kindPoints(),
  preloadTaskSuccess: kindPoints(),
});

/** `sendToMQTT`: on or off, and Butler's topic keys for failed and aborted reloads. */
const sendToMqttSchema = section({
  enable: bool(false),
  taskFailureTopic: nonEmptyStr("qliksense/task_failure"),
  taskFailureFullTopic: nonEmptyStr("qliksense/task_failure_full"),
  taskFailureSendFull: bool(true),
  taskAbortedTopic: nonEmptyStr("qliksense/task_aborted"),
  taskAbortedFullTopic: nonEmptyStr("qliksense/task_aborted_full"),
  taskAbortedSendFull: bool(true),
});

/** The task types and outcomes that get a point: every block of `timeseriesdb` but its tags. */
export const TASK_POINT_KINDS = Object.keys(timeseriesdbSchema.wrapped.entries).filter(
  (key) => key !== "tag",
);

/** Butler's broker topic keys, kept under `sendToMQTT`: every member but its switch. */
export const TASK_TOPIC_KEYS = Object.keys(sendToMqttSchema.wrapped.entries).filter(
  (key) => key !== "enable",
);

/**
 * `scriptLogFiles`: the full script log of each failed reload kept on disk, Butler's
 * `scriptLog.storeOnDisk.clientManaged.reloadTaskFailure`. It sits here, not at the top level
 * where Butler had it, because the task-event listener downloads the log for its alerts and the
 * file is written from that same download; like the whole of `taskEvents`, only the local process
 * runs it. 1 GiB and 30 days by default: a script log is rarely above a few megabytes, so that
 * keeps a month of a site that fails a few hundred reloads a day.
 */
export const scriptLogFilesSection = (directory = "./data/script-logs") =>
  section({
    enable: bool(false),
    directory: nonEmptyStr(directory),
    retentionDays: int(30, 1, 3650),
    maxTotalBytes: int(1024 * 1024 * 1024, 1024 * 1024),
  });

export const taskEventsSchema = section({
  enable: bool(false),
  udpServerConfig: taskEventsUdpSchema,
  deduplication: section({
    // A day at most: the appenders on several nodes send one execution within seconds of each other.
    windowSeconds: int(3600, 1, 86_400),
  }),
  timeseriesdb: timeseriesdbSchema,
  sendToMQTT: sendToMqttSchema,
  scriptLogFiles: scriptLogFilesSection(),
});
