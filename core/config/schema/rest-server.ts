/** restServer: the management REST API (/v4) listener and its endpoint switches. */
import * as v from "valibot";
import { isOrigin } from "../validators.ts";
import { listenerTlsSchema } from "./listener-tls.ts";
import {
  allowedHosts,
  bool,
  host,
  list,
  port,
  positiveInt,
  requiredStr,
  section,
  str,
  trustedProxies,
} from "./primitives.ts";

/** The endpointsEnable keys, in the order GET /v4/configfile/endpointsenabled lists them. */
export const ENDPOINT_KEYS = [
  "apiListEnabledEndpoints",
  "ping",
  "base62ToBase16",
  "base16ToBase62",
  "fileCopy",
  "fileMove",
  "fileDelete",
  "createDirTableData",
  "createDir",
  "keyValueStore",
  "mqttPublishMessage",
  "observabilityEvent",
  "observabilityMetric",
  "chatPostMessage",
  "scheduleCreate",
  "scheduleGet",
  "scheduleDelete",
  "scheduleStart",
  "scheduleStop",
  "scheduleStatus",
  "appReload",
  "appDump",
  "appList",
  "reloadTaskStart",
] as const;

export type EndpointKey = (typeof ENDPOINT_KEYS)[number];

/** The schedule endpoints (served with the schedule store). */
export const SCHEDULE_ENDPOINT_KEYS = [
  "scheduleCreate",
  "scheduleGet",
  "scheduleDelete",
  "scheduleStart",
  "scheduleStop",
  "scheduleStatus",
] as const satisfies readonly EndpointKey[];

/** The file endpoints (local runtime only: they work on the on-prem servers' disks). */
export const FILE_ENDPOINT_KEYS = [
  "fileCopy",
  "fileMove",
  "fileDelete",
  "createDirTableData",
  "createDir",
] as const satisfies readonly EndpointKey[];

/** Endpoints that need no other server are on by default; the rest are off. */
const ENABLED_BY_DEFAULT: ReadonlySet<EndpointKey> = new Set<EndpointKey>([
  "apiListEnabledEndpoints",
  "ping",
  "base62ToBase16",
  "base16ToBase62",
  "keyValueStore",
  ...SCHEDULE_ENDPOINT_KEYS,
]);

/** Endpoints that call the platform (repository/engine APIs) and so need platform.host and cert.*. */
export const PLATFORM_ENDPOINT_KEYS = [
  "appReload",
  "appDump",
  "appList",
  "reloadTaskStart",
] as const satisfies readonly EndpointKey[];

const endpointEntries = Object.fromEntries(
  ENDPOINT_KEYS.map((k) => [k, bool(ENABLED_BY_DEFAULT.has(k))]),
) as {
  [K in EndpointKey]: ReturnType<typeof bool>;
};

export const restServerSchema = section({
  enable: bool(true),
  host: host("127.0.0.1"),
  port: port(8081),
  apiToken: str(""),
  allowUnauthenticated: bool(false),
  allowedHosts: allowedHosts(),
  trustedProxies: trustedProxies(),
  tls: listenerTlsSchema(),
  maxConnections: positiveInt(200),
  cors: section({
    allowedOrigins: list(
      v.pipe(v.string(), v.check(isOrigin, 'must be an origin such as "https://host:port" or "*"')),
    ),
  }),
  rateLimit: section({ enable: bool(true), maxPerMinute: positiveInt(600) }),
  maxBodyBytes: positiveInt(1048576),
  endpointsEnable: section(endpointEntries),
  observability: section({
    event: section({ destinationAccount: list(requiredStr) }),
    metric: section({ destinationAccount: list(requiredStr) }),
  }),
});
