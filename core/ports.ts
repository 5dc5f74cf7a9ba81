/**
 * The ports many modules share: the interfaces through which core use cases reach the world
 * (types only; the values they carry are defined beside their rules and imported above). A port
 * that one module owns lives in that module's folder (alerts/email/email-client.ts,
 * task-events/task-repository.ts, licences/license-source.ts). Adapters under core/adapters/
 * implement them for one runtime; wiring (local/wiring.ts, functions/*) picks one adapter per
 * port, once. Each port an adapter implements has one contract test suite under test/contracts/.
 */
import type { AcceptedEvent, AuditRow } from "./audit/index.ts";
import type { LogLevel } from "./logging/index.ts";
import type { CloudReloadRun } from "./qlik-cloud/index.ts";
import type { Point } from "./shared/line-protocol.ts";

export type { LogLevel };

/** Structured context appended to a log line as `key=value` pairs. Never put secrets here. */
export type LogFields = Readonly<Record<string, unknown>>;

/** An injected logger. Nothing in Steward logs through a global. */
export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  verbose(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  silly(message: string, fields?: LogFields): void;
  /** True when a message at `level` would be written; guards expensive log arguments. */
  isLevelEnabled(level: LogLevel): boolean;
  /** A logger whose lines carry `scope` (e.g. "audit-ingest"), sharing the same sinks. */
  child(scope: string): Logger;
}

/** Opaque handle returned by Clock.setTimeout. */
export type TimerHandle = unknown;

/** Time, injected so that tests control it (rate-limit windows, ttl expiry, cron firing). */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Anything long-running: started by `start(deps)`, stopped once, in order, by local/cli/main.ts. */
export interface Stoppable {
  /** Stops accepting work, finishes or flushes what is in flight, releases resources. Idempotent. */
  stop(): Promise<void>;
}

// ---- audit ingest ports ----

/**
 * How a queue took an event. `full`, `rate-limited` and `too-large` are answers, not errors: the
 * edge maps them to 503, 429 and 413. `too-large` means the event is larger than the queue can
 * ever hold (the durable log's whole disk budget, the SQS queue's message size), so no retry can
 * succeed; the queue that answers it logs it (only it knows its limit). A queue that cannot be
 * reached throws instead (see core/audit/queue-errors.ts: `EventQueueUnavailableError` is
 * retryable → 503; anything else → 500).
 */
export type EnqueueResult = "queued" | "full" | "rate-limited" | "too-large";

/** Where accepted audit events go: the in-process queue locally, SQS in the cloud. */
export interface EventQueue {
  /**
   * Resolves only once the event is durably in the queue ("queued"): a 202 is never false.
   * `envelopeJson`, when given, is `event.envelope` as JSON (the request's own text, see
   * core/audit/envelope-json.ts): a queue that stores JSON uses it instead of encoding again.
   */
  enqueue(event: AcceptedEvent, envelopeJson?: string): Promise<EnqueueResult>;
}

/** Cumulative counters since start plus current gauges of a local event queue (queue metrics). */
export interface EventQueueMetrics {
  received: number;
  queued: number;
  processed: number;
  failed: number;
  droppedTotal: number;
  droppedRateLimit: number;
  droppedQueueFull: number;
  /** Events larger than the queue can ever hold (`too-large`, answered 413). */
  droppedSize: number;
  waiting: number;
  maxSize: number;
  running: number;
  utilisationPct: number;
  backpressureActive: boolean;
  /**
   * How long handing an event to the destinations took (their batchers buffering it, or waiting
   * for room), over the last 1000 hand-overs; 0 when none. The durable queue counts each
   * destination's hand-over on its own (each reads the log by itself).
   */
  processingTimeAvgMs: number;
  processingTimeP95Ms: number;
  processingTimeMaxMs: number;
}

/** Processes one accepted event (the destinations fan-out); injected into the local queue. */
export type AcceptedEventHandler = (event: AcceptedEvent) => Promise<void>;

/** Counters behind fixed-window rate limits, shared by every instance that uses the same store. */
export interface RateLimitStore {
  /**
   * Atomically adds one hit for `key` in the window starting at `windowStartMs` (lasting
   * `windowMs`) and returns the window's count including this hit.
   */
  increment(key: string, windowStartMs: number, windowMs: number): Promise<number>;
}

// ---- platform ports ----

/** A task known to the BI platform's repository (reload task, external program task, ...). */
export interface PlatformTask {
  readonly id: string;
  readonly name: string;
  /** The names of its tags, as the repository answered them (what the task start filter reads). */
  readonly tags: readonly string[];
  /** Its custom property values, by property name. */
  readonly customProperties: readonly { readonly name: string; readonly value: string }[];
}

/** An app (document) known to the platform. */
export interface PlatformApp {
  readonly id: string;
  readonly name: string;
}

/** Engine DoReload qMode: 0 default error handling, 1 stop on first script error (ABEND), 2 ignore errors. */
export type ReloadMode = 0 | 1 | 2;

export interface AppReloadOptions {
  readonly mode: ReloadMode;
  readonly partial: boolean;
}

/** One JSON object describing an app: properties, script, sheets, fields, connections... */
export type AppDump = Readonly<Record<string, unknown>>;

/**
 * The BI platform (Qlik Sense Enterprise on Windows): repository API for tasks and apps, engine
 * API for reloads and dumps. Adapters throw the typed errors of core/platform/errors.ts.
 */
export interface PlatformClient {
  /** The task with this id (a task of any type), or undefined when the repository does not know it. */
  findTaskById(taskId: string): Promise<PlatformTask | undefined>;
  /** Every task carrying the tag `tag` (exact name). */
  findTasksByTag(tag: string): Promise<PlatformTask[]>;
  /** Every task whose custom property `name` holds `value`. */
  findTasksByCustomProperty(name: string, value: string): Promise<PlatformTask[]>;
  /** Asks the platform's scheduler to start the task; resolves once the platform accepted the start. */
  startTask(taskId: string): Promise<void>;
  /** The app with this id, or undefined when the repository does not know it. */
  findAppById(appId: string): Promise<PlatformApp | undefined>;
  /** Apps the configured platform user can open (engine document list). */
  listApps(): Promise<PlatformApp[]>;
  /**
   * Every app the repository knows (`GET /qrs/app`), as id and name: what the agent's app-name
   * cache is filled from. An answer that is not a list of apps with a string id and name rejects
   * as a whole (PlatformResponseError), so a caller never acts on part of a catalogue. `signal`
   * gives the call up (PlatformCallAbortedError).
   */
  listRepositoryApps(signal?: AbortSignal): Promise<PlatformApp[]>;
  /** Reloads the app in the engine and saves it when the reload succeeded; resolves to that success. */
  reloadApp(appId: string, options: AppReloadOptions): Promise<boolean>;
  /** Reads the app (without data) and describes it as one JSON object. */
  dumpApp(appId: string): Promise<AppDump>;
}

/** Starts a platform task by id; what the scheduler calls when a schedule fires. */
export interface TaskStarter {
  startTask(taskId: string): Promise<void>;
}
// ---- management REST ports (key-value, schedules, messaging, observability, chat) ----

/**
 * Namespaced string key-value store with optional expiry. Expiry is exact: once
 * `clock.now() >= expiresAt` a key is never returned, whatever the backing store has purged.
 * A namespace exists from its first `set` until `deleteNamespace`, even when all its keys have
 * gone. Listings are sorted by UTF-16 code unit order so that every adapter answers alike.
 */
export interface KeyValueStore {
  /** The live value, or undefined when the namespace or key is missing or expired. */
  get(namespace: string, key: string): Promise<string | undefined>;
  /**
   * Creates or overwrites a key; `ttlMs` > 0 expires it that many ms from now, 0 or absent
   * never. Overwriting resets both value and ttl. Resolves only once the write is durable.
   * Throws KeyLimitExceededError when a new key would exceed the namespace's key limit.
   */
  set(namespace: string, key: string, value: string, ttlMs?: number): Promise<void>;
  /** Removes a key; false when the namespace or the (live) key was missing. */
  deleteKey(namespace: string, key: string): Promise<boolean>;
  /** Removes a namespace and all its keys; false when it did not exist. */
  deleteNamespace(namespace: string): Promise<boolean>;
  /** Live keys of a namespace, sorted; undefined when the namespace does not exist. */
  listKeys(namespace: string): Promise<string[] | undefined>;
  /** All namespaces, sorted. */
  listNamespaces(): Promise<string[]>;
  /** Releases files or connections. */
  close(): Promise<void>;
}

/** Schedule states. */
export type ScheduleState = "started" | "stopped";

/** A cron schedule that starts a platform task. */
export interface Schedule {
  id: string;
  created: string;
  name: string;
  cronSchedule: string;
  timezone: string;
  platformTaskId: string;
  startupState: ScheduleState;
  tags: string[];
  lastKnownState: ScheduleState;
}

/** Persistent schedule storage (TaskStarter, which a firing schedule calls, is in the platform block). `list` answers in creation order (created, then id). */
export interface ScheduleStore {
  list(): Promise<Schedule[]>;
  get(id: string): Promise<Schedule | undefined>;
  /** Inserts or replaces the schedule with this id; resolves once durable. */
  put(schedule: Schedule): Promise<void>;
  /** False when no schedule had this id. */
  delete(id: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Decides which process starts an occurrence of a schedule when several agents fire the same
 * stored schedules (a shared cloud store): one claim per schedule and due time, granted to the
 * first claimant (and to it again, should it retry), refused to every other owner and for any
 * occurrence older than one already claimed. A refused claim means: another process started it.
 */
export interface ScheduleLease {
  /** True when this process is to start the occurrence of `scheduleId` due at `dueMs`. */
  claim(scheduleId: string, dueMs: number): Promise<boolean>;
}

// ---- outbound: chat, observability platform, broker ----

/** A chat message (PUT /v4/chatpostmessage). */
export interface ChatMessage {
  channel: string;
  from_user: string;
  msg: string;
  emoji?: string;
}

/** Posts chat messages (a Slack-style incoming webhook). */
export interface ChatClient {
  postMessage(message: ChatMessage): Promise<void>;
}

/** A name and value: observability attributes and headers. */
export interface NameValue {
  name: string;
  value: string;
}

export interface ObservabilityAccount {
  accountName: string;
  insertApiKey: string;
  accountId: string | number;
}

export interface ObservabilityEvent {
  eventType: string;
  /** Epoch ms; absent or ≤ 0 means now. */
  timestamp?: number;
  attributes: readonly NameValue[];
}

export interface ObservabilityMetric {
  name: string;
  type: "gauge";
  value: number;
  timestamp?: number;
  /** Milliseconds covered by the value; sent as `interval.ms` when given. */
  interval?: number;
  attributes: readonly NameValue[];
}

/** The 202 body of the REST observability calls. */
export interface ObservabilityResult {
  observabilityResultCode: string;
  observabilityResultText: string;
}

/** The observability platform's event and metric APIs, for the REST endpoints. */
export interface ObservabilityClient {
  postEvent(event: ObservabilityEvent): Promise<ObservabilityResult>;
  postMetric(metric: ObservabilityMetric): Promise<ObservabilityResult>;
}

/**
 * Posts many events in one request to one account (the event API takes a JSON array): the
 * agent's batched UDP event destination, one batch per account so that a retry never repeats
 * what another account accepted. Throws ObservabilityPostError.
 */
export interface ObservabilityEventBatchClient {
  postEvents(events: readonly ObservabilityEvent[], account: ObservabilityAccount): Promise<void>;
}

/**
 * One element of the observability platform's log API body (`[{common: {attributes}, logs:
 * [{message}]}]`): attributes shared by its entries (values may be nested, the platform flattens
 * them) and the entries' messages.
 */
export interface ObservabilityLogBatch {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly messages: readonly string[];
}

/**
 * Posts log batches to one account's log API in one request (the reload alerts' log entries).
 * Throws ObservabilityPostError.
 */
export interface ObservabilityLogBatchClient {
  postLogs(batches: readonly ObservabilityLogBatch[], account: ObservabilityAccount): Promise<void>;
}

/**
 * Posts gauge batches to one account's metric API in one request (the body is an array, one
 * element per batch): the agent's health and session metrics. Throws ObservabilityPostError.
 */
export interface ObservabilityMetricBatchClient {
  postMetrics(batches: readonly ObservabilityMetricBatch[], account: ObservabilityAccount): Promise<void>;
}

/**
 * Publishes a message to a broker topic. Throws InvalidTopicError for a topic that cannot be
 * published to (empty, wildcards, NUL, over 65535 bytes) and UpstreamError when the broker is
 * unreachable, refuses or does not acknowledge in time: never hangs. The client wired when the
 * broker is switched off throws FeatureDisabledError instead.
 */
export interface BrokerClient {
  publish(topic: string, message: string): Promise<void>;
  /** Releases the connection; idempotent. A publish after close fails at once. */
  close(): Promise<void>;
}

// ---- file operations (local runtime only) ----

/** A source directory and the target directory files may be copied or moved to from it. */
export interface ApprovedDirectoryPair {
  fromDirectory: string;
  toDirectory: string;
}

export interface CopyRequest {
  fromFile: string;
  toFile: string;
  overwrite: boolean;
  preserveTimestamp: boolean;
}

export interface MoveRequest {
  fromFile: string;
  toFile: string;
  overwrite: boolean;
}

/** The REST API's file endpoints; every path is checked against the approved directories. */
export interface FileOperations {
  /** Returns the request with normalised paths. */
  copy(request: CopyRequest): Promise<CopyRequest>;
  move(request: MoveRequest): Promise<MoveRequest>;
  delete(path: string): Promise<void>;
  createDir(directory: string): Promise<void>;
  createDirTableData(directory: string): Promise<void>;
}

/** One script log kept on disk: its UTC date folder (`YYYY-MM-DD`), its name and size. */
export interface ScriptLogFileEntry {
  readonly date: string;
  readonly name: string;
  readonly bytes: number;
  /** Epoch ms it was last written. */
  readonly modifiedMs: number;
}

/**
 * The directory that keeps the script logs of failed reloads (`taskEvents.scriptLogFiles`): one
 * file per run under a folder per UTC date. Every method throws the operating system's error
 * (ENOSPC, EACCES, EROFS...) for the caller to report.
 */
export interface ScriptLogFolder {
  /** The directory, resolved, for log lines and the status page. */
  readonly directory: string;
  /** Writes `text` to `<date>/<name>` so that a crash leaves the whole file or none. */
  write(date: string, name: string, text: string): Promise<void>;
  /** Every file kept, in date folders named `YYYY-MM-DD` (anything else in the directory is left alone). */
  list(): Promise<readonly ScriptLogFileEntry[]>;
  /** Removes one file, and its date folder once it is empty. */
  remove(entry: Pick<ScriptLogFileEntry, "date" | "name">): Promise<void>;
}

// ---- audit destination ports ----

export interface AuditBatch {
  /**
   * Short unique id, part of file names; kept across retries of the same batch. A part of a
   * batch written on its own to isolate a fault has an id of its own (batch-halves.ts).
   */
  id: string;
  flushedAt: Date;
  events: readonly AcceptedEvent[];
}

export interface AuditDestination {
  /** The destination's name in `auditEvents.destination.type`. */
  readonly name: string;
  /**
   * Stores the batch; throws DestinationWriteError naming the events that were not stored
   * (refused, or kept back by an outage). Any other error is a fault: retried a few times, then
   * isolated to the events that cause it, which are refused (retrying-batch-write.ts).
   */
  write(batch: AuditBatch): Promise<void>;
  /** Creates what the destination needs (a database) before the first write; optional. */
  prepare?(): Promise<void>;
  /**
   * The events it skips by design, and why in a few words (the json destination: events
   * without objectData): counted skipped, not written, so that no operator looks for their files.
   * Absent: it stores every event.
   */
  readonly skips?: AuditSkips;
}

export interface AuditSkips {
  /** Why, for the status page: "no objectData". */
  readonly why: string;
  /** True for an event the destination skips. */
  readonly event: (event: AcceptedEvent) => boolean;
}

export interface TableFileMeta {
  /** Unique id of the batch; also in the file name. */
  batchId: string;
  flushedAt: Date;
}

export interface TableFileEncoder {
  /** File name extension without the dot: `parquet`, `qvd`. */
  extension: string;
  /**
   * The file's bytes. Asynchronous so that an encoder can give way to waiting requests between
   * pieces of a large batch (shared/next-turn.ts).
   */
  encode(rows: readonly AuditRow[], meta: TableFileMeta): Promise<Uint8Array>;
}

/**
 * Flat key → bytes storage for exported files (Parquet, QVD, objectData JSON). Keys are relative,
 * `/`-separated paths such as `parquet/date=2026-03-08/x.parquet`; adapters confine them to their
 * root (a directory, or a prefix in a bucket) and throw ObjectKeyError for anything that could
 * escape it. A put is atomic: readers see the old object or the whole new one.
 */
export interface ObjectStore {
  put(key: string, body: Uint8Array | string): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Every key starting with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
}

/** Writes points to one time-series database (InfluxDB v1, v2 or v3, chosen once at wiring). */
export interface TimeseriesClient {
  /** Creates the database (v1, v3) or bucket (v2) with its retention when missing. Idempotent. */
  ensureDatabase(): Promise<void>;
  /** Writes the points in one request; throws TimeseriesWriteError when the server refuses. */
  write(points: readonly Point[]): Promise<void>;
  /**
   * Writes points already encoded (each line as encodePoint makes it, lines separated by "\n",
   * as UTF-8) in one request, the body `write` would send for them; errors as `write`. The
   * bytes are read until the promise settles and not after, so the caller may reuse them.
   */
  writeLines(body: Uint8Array): Promise<void>;
}

// ---- on-prem agent ports ----

/** App id → app name, filled by the platform poller (app names); read by UDP event enrichment. */
export interface AppNameCache {
  /** The app's name, or undefined when the id is not known (yet). Ids are lower-case UUIDs. */
  nameOf(appId: string): string | undefined;
}

/** One value of a metric for one combination of label values. */
export interface MetricSample<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  readonly value: number;
}

/** A metric declared once; its values are read from `collect` at every scrape (no hot-path cost). */
export interface MetricSpec<L extends string> {
  /** Prometheus name, e.g. `steward_udp_messages_total`. */
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  /** The current values; counters must never decrease within a process. */
  collect(): Iterable<MetricSample<L>>;
  /**
   * Present when the values change only at known moments (a poll round's end): the registry
   * hands over a listener that the owner calls after each change, and `collect` returns the same
   * samples until the next call. A registry may then render the metric once per change instead
   * of at every scrape.
   */
  onChange?(listener: () => void): void;
}

/**
 * The engine's health check (`GET /engine/healthcheck`) as the agent reads it.
 * Memory in MB, `cpu.total` a percentage, `apps.*_docs` app ids (session apps start with
 * `SessionApp`), `started` the engine's compact start timestamp (`20211109T153726.028+0200`).
 */
export interface EngineHealth {
  readonly version: string;
  readonly started: string;
  readonly mem: { readonly committed: number; readonly allocated: number; readonly free: number };
  readonly cpu: { readonly total: number };
  readonly session: { readonly active: number; readonly total: number };
  readonly apps: {
    readonly active_docs: readonly string[];
    readonly loaded_docs: readonly string[];
    readonly in_memory_docs: readonly string[];
    readonly calls: number;
    readonly selections: number;
  };
  readonly users: { readonly active: number; readonly total: number };
  readonly cache: {
    readonly hits: number;
    readonly lookups: number;
    readonly added: number;
    readonly replaced: number;
    readonly bytes_added: number;
  };
  readonly saturated: boolean;
}

/** One proxy session of a virtual proxy (`GET /qps<prefix>/session`). */
export interface ProxySession {
  readonly userDirectory: string;
  readonly userId: string;
  readonly sessionId: string;
}

/** A virtual proxy's session list: the sessions, and the answer as the proxy sent it (for MQTT). */
export interface ProxySessionList {
  readonly sessions: readonly ProxySession[];
  /** The parsed JSON answer, unfiltered. */
  readonly raw: unknown;
}

/** A server whose engine health is polled: `serversToMonitor.servers[]`. */
export interface HealthTarget {
  /** `host:port` of the engine's health check (normally port 4747). */
  readonly host: string;
  /** Extra request headers of this server (`servers[].headers`). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The platform's monitoring endpoints, over HTTPS with the `cert.*` client certificate (re-read
 * when the files change on disk). Throws the typed errors of core/platform/errors.ts: a non-2xx
 * answer or a body of the wrong shape is a PlatformResponseError.
 */
export interface PlatformMonitor {
  /**
   * `GET https://<target.host>/engine/healthcheck` with the target's headers. `signal` gives the
   * call up (PlatformCallAbortedError), here and in proxySessions: a poller stopping does not wait
   * for a platform that does not answer.
   */
  engineHealth(target: HealthTarget, signal?: AbortSignal): Promise<EngineHealth>;
  /** `GET https://<sessionHost>/qps<prefix>/session` with the xrfkey pair; `/` is the root proxy. */
  proxySessions(sessionHost: string, virtualProxy: string, signal?: AbortSignal): Promise<ProxySessionList>;
  /**
   * Resolves when calls can be made now; rejects with the reason when none can (the client
   * certificate file is gone): a poller then skips its round instead of failing every call.
   */
  ready?(): Promise<void>;
  /** Releases connections; idempotent. */
  close(): void;
}

/**
 * Several gauges sharing one timestamp, interval and attribute set: one element of the
 * observability platform's metric API body (`[{common: {...}, metrics: [...]}]`).
 */
export interface ObservabilityMetricBatch {
  /** Epoch ms the values were read. */
  readonly timestamp: number;
  /** Milliseconds the values stand for (the polling interval); sent as `interval.ms`. */
  readonly intervalMs: number;
  readonly attributes: Readonly<Record<string, string>>;
  readonly metrics: readonly { readonly name: string; readonly value: number }[];
}

/**
 * Records one failure of the agent's own work for error tracking:
 * `type` is Butler SOS's error type (`HEALTH_API`, `PROXY_API`, `APP_NAMES_EXTRACT`,
 * `INFLUXDB_V1_WRITE`, `MQTT_PUBLISH`, `NEW_RELIC_POST`…), `server` the server's `serverName`
 * or `''` when the failure concerns no server. Never throws, never waits.
 */
export interface ErrorRecorder {
  record(type: string, server: string, error?: unknown): void;
}

/** Counters and gauges the scrape endpoint publishes; each agent part declares its own. */
export interface MetricsRegistry {
  counter<L extends string>(spec: MetricSpec<L>): void;
  gauge<L extends string>(spec: MetricSpec<L>): void;
}

// ---- Qlik Cloud tenants ----

/** One call of a tenant's REST API. */
export interface TenantRequest {
  /** GET unless given. */
  readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path under the tenant's URL, starting with `/`, e.g. `/api/v1/reloads`. */
  readonly path: string;
  /** Query parameters; undefined values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Gives the call up (TenantApiError with status "aborted"). */
  readonly signal?: AbortSignal;
}

/**
 * A Qlik Cloud tenant's REST API, one client per tenant (core/adapters/qlik-cloud/): it brings its
 * own credential (an OAuth token, cached until shortly before it expires, fetched again once on a
 * 401; or an API key), waits out a 429's `Retry-After`, backs off and tries again after a 5xx or a
 * time-out (not for a POST, which may have been done), gives every call a time limit and follows
 * no redirect. A tenant's waits and failures never hold up another tenant's calls. Every answer
 * that is not 2xx, and every call that fails, throws TenantApiError (core/qlik-cloud/tenant-api-error.ts).
 */
export interface TenantClient {
  /** The tenant's name (`qlikCloud.tenants[].name`). */
  readonly tenant: string;
  /** The 2xx answer's JSON body; undefined for an answer without one (204). */
  json(request: TenantRequest): Promise<unknown>;
  /** The 2xx answer's body as text (the script logs are `text/plain`). */
  text(request: TenantRequest): Promise<string>;
  /** When the cached OAuth token expires (epoch ms); undefined with an API key or before the first token. */
  tokenExpiresAt(): number | undefined;
}

/**
 * Where each tenant's polling inputs keep how far they have read (epoch ms), so that a restart
 * goes on from there. A write is atomic and durable once it resolves.
 */
export interface CloudCursorStore {
  /** The input's cursor; undefined before its first write (or when its file is unreadable). */
  read(tenant: string, input: string): Promise<number | undefined>;
  write(tenant: string, input: string, readUpToMs: number): Promise<void>;
}

/**
 * What every finished reload run of a tenant is handed to, once, after it was stored durably and
 * de-duplicated across webhook and polling. Resolving means the run is done with; a rejection
 * leaves it to be handed again at the next start.
 */
export type CloudRunHandler = (run: CloudReloadRun) => Promise<void>;

/**
 * Where a runtime that hands runs on elsewhere sends the key of each new run it stored (the
 * cloud's webhook function: an SQS queue that the hand-on function consumes). Resolves once the
 * queue has the message; rejects when it could not be sent.
 */
export interface CloudRunQueue {
  send(run: CloudReloadRun): Promise<void>;
}
