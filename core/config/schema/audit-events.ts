/** auditEvents: the ingest HTTP API, its queue and destinations. */
// The one function the schema needs, not the whole package: a cold start evaluates what is imported.
import validRange from "semver/ranges/valid.js";
import * as v from "valibot";
import { isOrigin } from "../validators.ts";
import { listenerTlsSchema } from "./listener-tls.ts";
import {
  allowedHosts,
  bool,
  durationMs,
  host,
  int,
  list,
  nameValueList,
  nonEmptyStr,
  port,
  positiveInt,
  requiredStr,
  section,
  str,
  trustedProxies,
} from "./primitives.ts";

export const AUDIT_DESTINATION_TYPES = ["timeseriesdb", "parquet", "tablefile", "json"] as const;
export type AuditDestinationType = (typeof AUDIT_DESTINATION_TYPES)[number];

const isDestinationType = (s: string): s is AuditDestinationType =>
  (AUDIT_DESTINATION_TYPES as readonly string[]).includes(s);

/** The YAML holds a comma-delimited string; the parsed config holds the de-duplicated array. */
export const destinationTypeSchema = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const names = dataset.value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    const bad = names.filter((s) => !isDestinationType(s));
    if (bad.length > 0) {
      addIssue({
        message: `unknown destination type ${bad.map((b) => `"${b}"`).join(", ")} (allowed: ${AUDIT_DESTINATION_TYPES.join(", ")})`,
      });
      return NEVER;
    }
    if (names.length === 0) {
      addIssue({ message: `must name at least one of ${AUDIT_DESTINATION_TYPES.join(", ")}` });
      return NEVER;
    }
    return [...new Set(names)].filter(isDestinationType);
  }),
);

/** The default's ranges are not parsed again at every parse (a test checks that they are ranges). */
const DEFAULT_COMPATIBILITY = [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }];
const DEFAULT_RANGES = new Set(DEFAULT_COMPATIBILITY.flatMap((pair) => [pair.serverRange, pair.clientRange]));

const semverRange = v.pipe(
  requiredStr,
  v.check(
    (s) => DEFAULT_RANGES.has(s) || validRange(s) !== null,
    "must be a semver range such as >=15.0.0 <16.0.0",
  ),
);

const batchEntries = {
  maxBatchSize: int(1000, 1, 10000),
  writeFrequency: durationMs(20000),
};

const fileDestination = (dir: string) =>
  section({ ...batchEntries, exportDirectory: nonEmptyStr(dir), staticTags: nameValueList() });

export const auditEventsSchema = section({
  enable: bool(true),
  host: host("127.0.0.1"),
  port: port(8181),
  apiToken: str(""),
  allowedHosts: allowedHosts(),
  trustedProxies: trustedProxies(),
  tls: listenerTlsSchema(),
  maxConnections: positiveInt(2000),
  maxBodyBytes: positiveInt(1048576),
  correlationIdMaxLength: positiveInt(64),
  compatibility: v.optional(
    v.array(v.object({ serverRange: semverRange, clientRange: semverRange })),
    DEFAULT_COMPATIBILITY,
  ),
  cors: section({
    allowedOrigins: list(
      v.pipe(v.string(), v.check(isOrigin, 'must be an origin such as "https://host:port" or "*"')),
    ),
  }),
  rateLimit: section({ enable: bool(true), maxPerMinute: positiveInt(300) }),
  queue: section({
    /** Locally: acknowledge (202) only once the event is synced to the log on disk. */
    durable: bool(true),
    directory: nonEmptyStr("./data/audit-queue"),
    maxDiskBytes: int(1073741824, 65536),
    maxSize: positiveInt(200),
    maxConcurrent: positiveInt(10),
    backpressureThreshold: int(80, 1, 100),
    rateLimit: section({ enable: bool(false), maxPerMinute: positiveInt(600) }),
    queueMetrics: section({
      timeseriesdb: section({
        enable: bool(false),
        writeFrequency: positiveInt(20000),
        measurementName: nonEmptyStr("audit_events_queue"),
        tags: nameValueList(),
      }),
    }),
  }),
  destination: section({
    enable: bool(true),
    type: v.optional(destinationTypeSchema, "parquet"),
    timeseriesdb: section({
      ...batchEntries,
      measurementName: nonEmptyStr("audit_event"),
      staticTags: nameValueList(),
    }),
    parquet: fileDestination("audit-events/parquet"),
    tablefile: fileDestination("audit-events/tablefile"),
    json: section({
      objectdata: section({
        enable: bool(false),
        exportDirectory: nonEmptyStr("audit-events/json"),
        staticTags: nameValueList(),
      }),
    }),
  }),
});
