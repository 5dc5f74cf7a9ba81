/**
 * The rules of `steward migrate-config` for a Butler SOS configuration (the optional
 * `auditEvents` section included): how each key becomes a Steward key (names that say what a
 * setting does, not which product it talks to). Paths are relative to `Butler-SOS`, with `[]`
 * for list items; the rule kinds are described in ./product-rules.ts. Values are kept, except
 * where a value transform says why.
 */
import { addStewardOnlyChoices, adjustAcrossKeys } from "./butler-sos-additions.ts";
import {
  anonTelemetryRule,
  drop,
  lift,
  type MigrationRule,
  type ProductRules,
  rename,
  type ValueTransform,
} from "./product-rules.ts";

const AUDIT_CONNECTION =
  "Steward's audit timeseriesdb writer uses the connection settings of timeseriesdbConfig; set the database there";
const UNUSED_OBJECTDATA =
  "Butler SOS never wrote it (only json.objectdata is implemented); Steward has no such setting";

/** Key rules by Butler SOS path. */
const KEY_RULES: ReadonlyMap<string, MigrationRule> = new Map<string, MigrationRule>([
  // ---- sections named after what they do rather than after a product ----
  ["dockerHealthCheck", rename("containerHealthCheck")],
  ["prometheus", rename("scrapeEndpoint")],
  ["newRelic", rename("obsPlatform")],
  ["influxdbConfig", rename("timeseriesdbConfig")],
  ["qlikSenseEvents", rename("platformEvents")],
  ["thirdPartyToolsCredentials.newRelic", rename("obsPlatform")],

  // ---- time-series database sub-keys ----
  ["qlikSenseEvents.influxdb", rename("timeseriesdb")],
  ["qlikSenseEvents.eventCount.influxdb", rename("timeseriesdb")],
  ["qlikSenseEvents.rejectedEventCount.influxdb", rename("timeseriesdb")],
  ["errorTracking.influxdb", rename("timeseriesdb")],
  ["userEvents.udpServerConfig.queueMetrics.influxdb", rename("timeseriesdb")],
  ["logEvents.udpServerConfig.queueMetrics.influxdb", rename("timeseriesdb")],
  ["userEvents.sendToInfluxdb", rename("sendToTimeseriesdb")],
  ["logEvents.sendToInfluxdb", rename("sendToTimeseriesdb")],

  // ---- observability platform sub-keys ----
  ["userEvents.sendToNewRelic", rename("sendToObsPlatform")],
  ["logEvents.sendToNewRelic", rename("sendToObsPlatform")],
  ["newRelic.event.attribute.dynamic.butlerSosVersion", rename("serviceVersion")],
  ["newRelic.metric.attribute.dynamic.butlerSosVersion", rename("serviceVersion")],

  // ---- uptime monitor ----
  ["uptimeMonitor.storeInInfluxdb", rename("storeInTimeseriesdb")],
  ["uptimeMonitor.storeInInfluxdb.butlerSOSMemoryUsage", rename("serviceMemoryUsage")],
  ["uptimeMonitor.storeNewRelic", rename("storeObsPlatform")],
  ["uptimeMonitor.storeNewRelic.metric.dynamic.butlerMemoryUsage", rename("serviceMemoryUsage")],
  ["uptimeMonitor.storeNewRelic.metric.dynamic.butlerUptime", rename("serviceUptime")],
  ["uptimeMonitor.storeNewRelic.attribute.dynamic.butlerVersion", rename("serviceVersion")],

  // ---- log events ----
  ["logEvents.source.qixPerf", rename("engineApiPerf")],

  // ---- keys with no counterpart ----
  [
    "prometheus.nodeMetricsHost",
    drop(
      "Steward serves the process metrics on the scrape endpoint itself (scrapeEndpoint.host); there is no second listener",
    ),
  ],
  [
    "prometheus.nodeMetricsPort",
    drop(
      "Steward serves the process metrics on the scrape endpoint itself (scrapeEndpoint.port); there is no second listener",
    ),
  ],

  // ---- the audit ingest API (optional in Butler SOS); its tls keeps its keys ----
  [
    "auditEvents.tls.minVersion",
    drop("Steward's HTTPS listeners speak TLS 1.2 at least and take TLS 1.3 when the client offers it"),
  ],
  ["auditEvents.queue.messageQueue", lift],
  ["auditEvents.queue.rateLimit.maxMessagesPerMinute", rename("maxPerMinute")],
  ["auditEvents.queue.queueMetrics.influxdb", rename("timeseriesdb")],
  ["auditEvents.destination.influxdb", rename("timeseriesdb")],
  ["auditEvents.destination.influxdb.metadata", lift],
  ["auditEvents.destination.influxdb.metadata.host", drop(AUDIT_CONNECTION)],
  ["auditEvents.destination.influxdb.metadata.port", drop(AUDIT_CONNECTION)],
  ["auditEvents.destination.influxdb.metadata.version", drop(AUDIT_CONNECTION)],
  ["auditEvents.destination.influxdb.metadata.v1Config", drop(AUDIT_CONNECTION)],
  ["auditEvents.destination.influxdb.metadata.v2Config", drop(AUDIT_CONNECTION)],
  ["auditEvents.destination.influxdb.metadata.v3Config", drop(AUDIT_CONNECTION)],
  [
    "auditEvents.destination.influxdb.metadata.auditEventSchemaVersion",
    drop("Steward tags each point with the event's own schemaVersion"),
  ],
  ["auditEvents.destination.influxdb.objectdata", drop(UNUSED_OBJECTDATA)],
  ["auditEvents.destination.parquet.metadata", lift],
  ["auditEvents.destination.parquet.objectdata", drop(UNUSED_OBJECTDATA)],
  ["auditEvents.destination.qvd", rename("tablefile")],
  ["auditEvents.destination.qvd.metadata", lift],
  ["auditEvents.destination.qvd.objectdata", drop(UNUSED_OBJECTDATA)],
  ["auditEvents.destination.screenshots", drop("Steward does not download screenshots of audit events")],
]);

/** The spelling of the time-series database and table-file writers in `auditEvents.destination.type`. */
const AUDIT_DESTINATION_NAMES: Readonly<Record<string, string>> = {
  influxdb: "timeseriesdb",
  qvd: "tablefile",
};

/** Value transforms by Butler SOS path. */
const VALUE_RULES: ReadonlyMap<string, ValueTransform> = new Map<string, ValueTransform>([
  [
    "auditEvents.destination.type",
    (value: unknown) => {
      if (typeof value !== "string") return undefined;
      const names = value.split(",").map((name) => name.trim().toLowerCase());
      const renamed = names.map((name) => AUDIT_DESTINATION_NAMES[name] ?? name).join(",");
      return renamed === value
        ? undefined
        : { value: renamed, note: `writer names are Steward's: "${renamed}"` };
    },
  ],
  ["anonTelemetry", anonTelemetryRule("Butler SOS")],
  [
    "influxdbConfig.maxBatchSize",
    (value: unknown) =>
      typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 10000
        ? undefined
        : {
            value: 1000,
            note: "not an integer from 1 to 10000; Butler SOS used 1000 instead, and so does this file",
          },
  ],
]);

/**
 * Things that work differently in Steward, said once when the source turns the feature on
 * (Butler SOS path → message when the value is `true`). The keys themselves convert as usual.
 */
const BEHAVIOUR_NOTES: ReadonlyMap<string, string> = new Map([
  [
    "prometheus.enable",
    "scrape metrics are named steward_* instead of butlersos_* (e.g. steward_mem_free); update dashboards and alerts",
  ],
  [
    "uptimeMonitor.storeInInfluxdb.butlerSOSMemoryUsage",
    "Steward's own memory goes to the measurement steward_memory_usage (tags instance, version) instead of butlersos_memory_usage: update dashboards that read it",
  ],
  [
    "uptimeMonitor.storeNewRelic.enable",
    "Steward sends uptime metrics to the observability platform only when obsPlatform.enable is true as well",
  ],
]);

/** The header's summary of the renames. */
const HEADER_NAMES = [
  "Butler-SOS → Service, influxdbConfig → timeseriesdbConfig, newRelic → obsPlatform,",
  "prometheus → scrapeEndpoint, dockerHealthCheck → containerHealthCheck, qlikSenseEvents →",
  "platformEvents, …influxdb → …timeseriesdb, sendToInfluxdb → sendToTimeseriesdb, sendToNewRelic →",
  "sendToObsPlatform, qixPerf → engineApiPerf, butlerSOSMemoryUsage → serviceMemoryUsage, …",
];

export const BUTLER_SOS_RULES: ProductRules = {
  root: "Butler-SOS",
  product: "Butler SOS",
  keyRules: KEY_RULES,
  valueRules: VALUE_RULES,
  behaviourNotes: BEHAVIOUR_NOTES,
  headerNames: HEADER_NAMES,
  finish: (doc, service) => [...adjustAcrossKeys(doc), ...addStewardOnlyChoices(doc, service)],
};
