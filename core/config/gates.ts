/**
 * Which sections are validated. Every object node with an `enable` member is validated only when
 * that flag (after defaults) is `true`; a few sections have their own rule, decided here from the
 * raw tree because they depend on other sections (e.g. the time-series database is validated
 * when audit events are written to it, whatever its own `enable` says).
 */

import { serviceSchema } from "./schema/config.ts";
import { ENDPOINT_KEYS, type EndpointKey, PLATFORM_ENDPOINT_KEYS } from "./schema/rest-server.ts";
import { type AnySchema, schemaAt, schemaDefault } from "./schema-walk.ts";

export type RawTree = Readonly<Record<string, unknown>>;

export const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** The raw value at a dotted path under `Service`, or undefined. */
export function rawAt(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const key of path.split(".")) {
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** True only when the flag at `path` is `true`, or absent with a default of `true`. */
export function flagOn(root: unknown, path: string): boolean {
  const raw = rawAt(root, path);
  if (raw === undefined) return schemaDefault(schemaAt(serviceSchema, path.split(".")) as AnySchema) === true;
  return raw === true;
}

export const LOG_EVENT_SOURCES = ["engine", "proxy", "repository", "scheduler", "engineApiPerf"] as const;

/** Which features are active, computed once from the raw tree; drives the gates below. */
export interface Activity {
  readonly restServer: boolean;
  readonly endpoint: (key: EndpointKey) => boolean;
  readonly auditEvents: boolean;
  readonly auditDestination: boolean;
  readonly timeseriesdbNeeded: boolean;
  readonly logEvents: boolean;
  readonly obsPlatformUsed: boolean;
  readonly certNeeded: boolean;
}

function destinationTypes(root: unknown): string[] {
  const raw = rawAt(root, "auditEvents.destination.type");
  const text =
    typeof raw === "string"
      ? raw
      : String(schemaDefault(schemaAt(serviceSchema, ["auditEvents", "destination", "type"]) as AnySchema));
  return text.split(",").map((s) => s.trim());
}

/** True when tasks are started from the broker: its connection on and a start topic set. */
function brokerStartsTasks(root: unknown): boolean {
  const topic = rawAt(root, "mqttConfig.taskStartTopic");
  return flagOn(root, "mqttConfig.enable") && typeof topic === "string" && topic !== "";
}

export function computeActivity(root: unknown): Activity {
  const restServer = flagOn(root, "restServer.enable");
  const endpoints = new Map<EndpointKey, boolean>(
    ENDPOINT_KEYS.map((k) => [k, restServer && flagOn(root, `restServer.endpointsEnable.${k}`)]),
  );
  const endpoint = (key: EndpointKey) => endpoints.get(key) === true;
  const auditEvents = flagOn(root, "auditEvents.enable");
  const auditDestination = auditEvents && flagOn(root, "auditEvents.destination.enable");
  const timeseriesdbNeeded =
    (auditDestination && destinationTypes(root).includes("timeseriesdb")) ||
    (auditEvents && flagOn(root, "auditEvents.queue.queueMetrics.timeseriesdb.enable"));
  const logEvents = LOG_EVENT_SOURCES.some((s) => flagOn(root, `logEvents.source.${s}.enable`));
  const obsPlatformUsed =
    flagOn(root, "obsPlatform.enable") ||
    endpoint("observabilityEvent") ||
    endpoint("observabilityMetric") ||
    (flagOn(root, "userEvents.enable") && flagOn(root, "userEvents.sendToObsPlatform.enable")) ||
    (logEvents && flagOn(root, "logEvents.sendToObsPlatform.enable")) ||
    (flagOn(root, "uptimeMonitor.enable") && flagOn(root, "uptimeMonitor.storeObsPlatform.enable"));
  const servers = rawAt(root, "serversToMonitor.servers");
  const certNeeded =
    PLATFORM_ENDPOINT_KEYS.some(endpoint) ||
    (Array.isArray(servers) && servers.length > 0) ||
    flagOn(root, "appNames.enableAppNameExtract") ||
    flagOn(root, "userSessions.enableSessionExtract") ||
    // Each task event is looked up in the repository over the client certificate.
    flagOn(root, "taskEvents.enable") ||
    flagOn(root, "licenseMonitor.enable") ||
    // A task id published to the start topic is looked up and started in the repository.
    brokerStartsTasks(root);
  return {
    restServer,
    endpoint,
    auditEvents,
    auditDestination,
    timeseriesdbNeeded,
    logEvents,
    obsPlatformUsed,
    certNeeded,
  };
}

export interface Gate {
  /** The member holding the section's own switch, if it has one. */
  readonly flagKey?: string;
  /** Decides activity given the section's own flag (false when it has none). */
  readonly isActive: (ownFlag: boolean, activity: Activity, root: unknown) => boolean;
  /** Flags (relative dotted paths) that decide activity and so must be booleans even when inactive. */
  readonly decidingFlags?: readonly string[];
}

const versionGate = (n: number): Gate => ({
  isActive: (_own, _activity, root) => {
    const raw = rawAt(root, "timeseriesdbConfig.version");
    const version =
      raw === undefined
        ? schemaDefault(schemaAt(serviceSchema, ["timeseriesdbConfig", "version"]) as AnySchema)
        : raw;
    return version === n;
  },
});

/** Sections with their own rule, by dotted schema path (`[]` for array levels). */
export const CUSTOM_GATES: ReadonlyMap<string, Gate> = new Map<string, Gate>([
  ["timeseriesdbConfig", { flagKey: "enable", isActive: (own, a) => own || a.timeseriesdbNeeded }],
  ["timeseriesdbConfig.v1Config", versionGate(1)],
  ["timeseriesdbConfig.v2Config", versionGate(2)],
  ["timeseriesdbConfig.v3Config", versionGate(3)],
  ["obsPlatform", { flagKey: "enable", isActive: (own, a) => own || a.obsPlatformUsed }],
  [
    "thirdPartyToolsCredentials",
    // Reload alerts to the observability platform name their accounts there too.
    { isActive: (_own, a, root) => a.obsPlatformUsed || flagOn(root, "incidentTool.newRelic.enable") },
  ],
  [
    "logEvents",
    { isActive: (_own, a) => a.logEvents, decidingFlags: LOG_EVENT_SOURCES.map((s) => `source.${s}.enable`) },
  ],
  [
    "taskEvents",
    // Its broker switch and topics also serve the Qlik Cloud tenants' reloads, which need no listener.
    {
      flagKey: "enable",
      isActive: (own, _a, root) =>
        own ||
        (flagOn(root, "qlikCloud.enable") &&
          flagOn(root, "mqttConfig.enable") &&
          flagOn(root, "taskEvents.sendToMQTT.enable")),
      decidingFlags: ["sendToMQTT.enable"],
    },
  ],
  ["cert", { isActive: (_own, a) => a.certNeeded }],
  ["chat", { isActive: (_own, a) => a.endpoint("chatPostMessage") }],
  ["appNames", { flagKey: "enableAppNameExtract", isActive: (own) => own }],
  ["userSessions", { flagKey: "enableSessionExtract", isActive: (own) => own }],
]);

const GENERIC_GATE: Gate = { flagKey: "enable", isActive: (own) => own };

/** The gate of an object node, or undefined when the node is always validated. */
export function gateFor(schemaPath: string, entries: Readonly<Record<string, AnySchema>>): Gate | undefined {
  const custom = CUSTOM_GATES.get(schemaPath);
  if (custom !== undefined) return custom;
  return "enable" in entries ? GENERIC_GATE : undefined;
}
