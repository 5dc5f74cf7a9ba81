/**
 * What the Qlik Cloud inputs report about themselves, per tenant, for `/metrics` and `/status`:
 * - `steward_cloud_events_total{tenant,source,outcome}`: each run or event an input took, by
 *   source (`webhook`, `poll`) and what became of it: `processed` (handed on), `duplicate`
 *   (already taken, by the other source or an earlier delivery), `bad_signature` (a delivery
 *   refused 401), `unknown_type` (an event type Steward does not handle, acknowledged), `failed`
 *   (a body that is no event, a run that could not be stored, or one the handler refused);
 * - `steward_cloud_cursor_lag_seconds{tenant,input}`: how far behind now each polling input has
 *   read (`reloads`, `audits`); it grows while a tenant cannot be polled;
 * - `steward_cloud_token_refreshes_total{tenant,outcome}` (`ok`, `failed`) and
 *   `steward_cloud_api_errors_total{tenant,status}` (an HTTP status, or `timeout`, `network`,
 *   `redirect`, `aborted`), reported by the tenant clients (TenantCallEvents);
 * - on the status board, per tenant: the last run taken, each cursor and its lag, the token's
 *   expiry and its fetches (ok, failed), the API errors by status and the last error.
 * Every label value is a configured tenant name or one of the words above, never a value from a
 * request, so the series stay few.
 */
import type { Clock, MetricsRegistry } from "../ports.ts";
import type { CloudReloadRun, CloudRunSource } from "./cloud-reload-run.ts";
import type { TenantCallEvents } from "./tenant-call-events.ts";

export const CLOUD_EVENT_OUTCOMES = [
  "processed",
  "duplicate",
  "bad_signature",
  "unknown_type",
  "failed",
] as const;
export type CloudEventOutcome = (typeof CLOUD_EVENT_OUTCOMES)[number];

export type CloudPollInput = "reloads" | "audits";

export interface CloudTenantStatus {
  lastRun?: {
    at: string;
    source: string;
    input: string;
    reloadId: string;
    appId: string;
    kind: string;
    status: string;
  };
  cursors: Record<string, { readUpTo: string; lagSeconds: number }>;
  token?: { expiresAt: string };
  /** Tokens fetched, by outcome (`ok`, `failed`); empty for an API key, which needs none. */
  tokenFetches: Record<string, number>;
  /** Calls answered other than 2xx or failed, by HTTP status or `timeout`, `network`, ... */
  apiErrors: Record<string, number>;
  lastError?: { at: string; message: string };
  events: Record<string, number>;
}

export interface CloudInputMonitor extends TenantCallEvents {
  /** Shows the tenant (all its counts at 0) from the start, for the sources it has on. */
  declareTenant(tenant: string, sources: readonly CloudRunSource[]): void;
  event(tenant: string, source: CloudRunSource, outcome: CloudEventOutcome): void;
  handedOn(run: CloudReloadRun): void;
  cursor(tenant: string, input: CloudPollInput, readUpToMs: number): void;
  error(tenant: string, message: string): void;
  status(tenant: string): CloudTenantStatus;
}

interface TenantRecord {
  readonly events: Map<string, number>;
  readonly cursors: Map<CloudPollInput, number>;
  readonly tokens: Map<string, number>;
  readonly apiErrors: Map<string, number>;
  lastRun?: CloudTenantStatus["lastRun"];
  tokenExpiresAtMs?: number;
  lastError?: { at: string; message: string };
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export function createCloudInputMonitor(metrics: MetricsRegistry, clock: Clock): CloudInputMonitor {
  const tenants = new Map<string, TenantRecord>();
  const record = (tenant: string): TenantRecord => {
    let found = tenants.get(tenant);
    if (found === undefined) {
      found = { events: new Map(), cursors: new Map(), tokens: new Map(), apiErrors: new Map() };
      tenants.set(tenant, found);
    }
    return found;
  };
  declareMetrics(metrics, clock, tenants);
  const iso = (ms: number) => new Date(ms).toISOString();

  return {
    declareTenant(tenant, sources) {
      const { events } = record(tenant);
      for (const source of sources)
        for (const outcome of CLOUD_EVENT_OUTCOMES)
          events.set(`${source}.${outcome}`, events.get(`${source}.${outcome}`) ?? 0);
    },
    event: (tenant, source, outcome) => void bump(record(tenant).events, `${source}.${outcome}`),
    handedOn(run) {
      record(run.tenant).lastRun = {
        at: iso(clock.now()),
        source: run.source,
        input: run.input,
        reloadId: run.reloadId,
        appId: run.appId,
        kind: run.kind,
        status: run.status,
      };
    },
    cursor: (tenant, input, readUpToMs) => void record(tenant).cursors.set(input, readUpToMs),
    error(tenant, message) {
      record(tenant).lastError = { at: iso(clock.now()), message };
    },
    tokenFetched(tenant, expiresAtMs) {
      const r = record(tenant);
      bump(r.tokens, "ok");
      r.tokenExpiresAtMs = expiresAtMs;
    },
    tokenFailed: (tenant) => void bump(record(tenant).tokens, "failed"),
    callFailed: (tenant, status) => void bump(record(tenant).apiErrors, status),
    status(tenant) {
      const r = record(tenant);
      const now = clock.now();
      return {
        ...(r.lastRun === undefined ? {} : { lastRun: r.lastRun }),
        cursors: Object.fromEntries(
          [...r.cursors].map(([input, at]) => [
            input,
            { readUpTo: iso(at), lagSeconds: Math.max(0, Math.round((now - at) / 1000)) },
          ]),
        ),
        ...(r.tokenExpiresAtMs === undefined ? {} : { token: { expiresAt: iso(r.tokenExpiresAtMs) } }),
        tokenFetches: Object.fromEntries(r.tokens),
        apiErrors: Object.fromEntries(r.apiErrors),
        ...(r.lastError === undefined ? {} : { lastError: r.lastError }),
        events: Object.fromEntries(r.events),
      };
    },
  };
}

/** One sample per tenant and key of the map `pick` chooses, labelled by the tenant and `labels(key)`. */
function samplesOf<L extends string>(
  tenants: ReadonlyMap<string, TenantRecord>,
  pick: (r: TenantRecord) => Map<string, number>,
  labels: (key: string) => Record<L, string>,
) {
  return [...tenants].flatMap(([tenant, r]) =>
    [...pick(r)].map(([key, value]) => ({ labels: { tenant, ...labels(key) }, value })),
  );
}

function declareMetrics(
  metrics: MetricsRegistry,
  clock: Clock,
  tenants: ReadonlyMap<string, TenantRecord>,
): void {
  metrics.counter({
    name: "steward_cloud_events_total",
    help:
      "Qlik Cloud runs and events per tenant, source (webhook, poll) and outcome: processed, duplicate, " +
      "bad_signature, unknown_type, failed",
    labelNames: ["tenant", "source", "outcome"],
    collect: () =>
      samplesOf(
        tenants,
        (r) => r.events,
        (key) => {
          const [source = "", outcome = ""] = key.split(".");
          return { source, outcome };
        },
      ),
  });
  metrics.gauge({
    name: "steward_cloud_cursor_lag_seconds",
    help: "How far behind now each Qlik Cloud polling input (reloads, audits) has read, per tenant",
    labelNames: ["tenant", "input"],
    collect: () =>
      [...tenants].flatMap(([tenant, r]) =>
        [...r.cursors].map(([input, at]) => ({
          labels: { tenant, input },
          value: Math.max(0, (clock.now() - at) / 1000),
        })),
      ),
  });
  metrics.counter({
    name: "steward_cloud_token_refreshes_total",
    help: "OAuth tokens fetched from each Qlik Cloud tenant, by outcome (ok, failed)",
    labelNames: ["tenant", "outcome"],
    collect: () =>
      samplesOf(
        tenants,
        (r) => r.tokens,
        (outcome) => ({ outcome }),
      ),
  });
  metrics.counter({
    name: "steward_cloud_api_errors_total",
    help: "Qlik Cloud API calls answered other than 2xx, or failed (timeout, network, redirect, aborted), per tenant and status",
    labelNames: ["tenant", "status"],
    collect: () =>
      samplesOf(
        tenants,
        (r) => r.apiErrors,
        (status) => ({ status }),
      ),
  });
}
