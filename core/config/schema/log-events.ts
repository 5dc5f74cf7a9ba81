/**
 * logEvents: warnings/errors/fatals from the platform's services over UDP, their categorisation
 * rules and the engine performance monitor. The section is validated only when at least one
 * `source.*.enable` is true (see ../gates.ts).
 */
import * as v from "valibot";
import { logEventsUdpSchema } from "./platform-events.ts";
import {
  bool,
  list,
  nameValue,
  nameValueList,
  nonEmptyList,
  nonEmptyStr,
  requiredStr,
  section,
} from "./primitives.ts";

/** Levels a log event can carry; rules match them case-insensitively. */
export const LOG_EVENT_LEVELS = ["error", "warn", "fatal", "info", "verbose", "debug", "silly"] as const;

const ruleLogLevel = v.pipe(
  v.string(),
  v.check(
    (s) => (LOG_EVENT_LEVELS as readonly string[]).includes(s.toLowerCase()),
    `must be one of ${LOG_EVENT_LEVELS.join(", ")}`,
  ),
);

export const categoriseRuleSchema = v.object({
  description: v.optional(v.string(), ""),
  logLevel: nonEmptyList(ruleLogLevel),
  action: v.optional(v.picklist(["categorise", "drop"], 'must be "categorise" or "drop"'), "categorise"),
  category: v.optional(v.array(nameValue), []),
  filter: nonEmptyList(
    v.object({ type: v.picklist(["sw", "ew", "so"], 'must be "sw", "ew" or "so"'), value: requiredStr }),
  ),
});

const appRef = v.object({ appId: v.optional(requiredStr), appName: v.optional(requiredStr) });

/**
 * An app object id in the performance monitor's appObject lists. Butler SOS's schema declares
 * strings while its code and template comments use `{objectId: ...}` items, so configurations exist
 * in both forms: both are accepted and normalised to the id string.
 */
export const appObjectIdSchema = v.pipe(
  v.union(
    [requiredStr, v.strictObject({ objectId: requiredStr })],
    "must be an object id or a mapping {objectId: ...}",
  ),
  v.transform((item) => (typeof item === "string" ? item : item.objectId)),
);

const objectTypeSelection = () =>
  section({
    allObjectTypes: bool(true),
    allObjectTypesExclude: list(requiredStr),
    someObjectTypesInclude: list(requiredStr),
  });

const methodSelection = () =>
  section({
    allMethods: bool(true),
    allMethodsExclude: list(requiredStr),
    someMethodsInclude: list(requiredStr),
  });

const sourceOff = () => section({ enable: bool(false) });

const obsSource = () =>
  section({ enable: bool(true), logLevel: section({ error: bool(true), warn: bool(true) }) });

export const logEventsSchema = section({
  udpServerConfig: logEventsUdpSchema,
  tags: nameValueList(),
  source: section({
    engine: sourceOff(),
    proxy: sourceOff(),
    repository: sourceOff(),
    scheduler: sourceOff(),
    engineApiPerf: sourceOff(),
  }),
  categorise: section({
    enable: bool(false),
    rules: list(categoriseRuleSchema),
    ruleDefault: section({
      enable: bool(true),
      category: v.optional(v.array(nameValue), [{ name: "qs_log_category", value: "unknown" }]),
    }),
  }),
  enginePerformanceMonitor: section({
    enable: bool(false),
    appNameLookup: section({ enable: bool(false) }),
    trackRejectedEvents: section({ enable: bool(false), tags: nameValueList() }),
    monitorFilter: section({
      allApps: section({
        enable: bool(false),
        appExclude: list(appRef),
        objectType: objectTypeSelection(),
        method: methodSelection(),
      }),
      appSpecific: section({
        enable: bool(false),
        app: list(
          v.object({
            include: list(appRef),
            objectType: objectTypeSelection(),
            appObject: section({
              allAppObjects: bool(true),
              allAppObjectsExclude: list(appObjectIdSchema),
              someAppObjectsInclude: list(appObjectIdSchema),
            }),
            method: methodSelection(),
          }),
        ),
      }),
    }),
  }),
  sendToMQTT: section({
    enable: bool(false),
    baseTopic: nonEmptyStr("qliksense/logevent"),
    postTo: section({ baseTopic: bool(true), subsystemTopics: bool(true) }),
  }),
  sendToTimeseriesdb: section({ enable: bool(false) }),
  sendToObsPlatform: section({
    enable: bool(false),
    destinationAccount: list(requiredStr),
    source: section({
      engine: obsSource(),
      proxy: obsSource(),
      repository: obsSource(),
      scheduler: obsSource(),
    }),
  }),
});
