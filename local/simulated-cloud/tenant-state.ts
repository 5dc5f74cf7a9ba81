/**
 * What a simulated tenant holds and how tests steer it: its reloads (each finished one also an
 * audit event, as in a real tenant), its registered webhooks (secrets stored, never returned) and
 * their deliveries, the tokens it issued, every call it got, and the faults it answers with on
 * demand (a 429 with its `Retry-After`, 5xx answers, answers held back). Times come from `now`,
 * so a test can fix them.
 */
import { randomBytes } from "node:crypto";
import type { TenantFixture } from "./tenant-fixtures.ts";

export interface SimulatedReload {
  readonly id: string;
  readonly appId: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly type: string;
  readonly status: string;
  readonly partial: boolean;
  readonly creationTime: string;
  readonly startTime: string;
  readonly endTime: string;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  /** The script log, CRLF lines. */
  readonly scriptLog: string;
  /** The id of the `com.qlik.v1.reload.finished` event about it. */
  readonly eventId: string;
}

export interface StoredWebhook {
  id: string;
  name: string;
  url: string;
  eventTypes: string[];
  level: string;
  enabled: boolean;
  description: string;
  secret: string;
  headers: Record<string, string>;
  enableCloudEventDelivery: boolean;
  createdAt: string;
  updatedAt: string;
  /** Which API created it: `core` or `v1`. */
  api: string;
}

export interface Delivery {
  readonly id: string;
  readonly webhookId: string;
  readonly eventType: string;
  readonly status: "success" | "fail";
  readonly statusMessage?: string;
  readonly triggeredAt: string;
  readonly url: string;
  readonly body: string;
  readonly responseStatus?: number;
}

/** Faults, each used up as it is answered. */
export interface TenantFaults {
  /** The next this many API calls are answered 429 with `Retry-After: retryAfterSeconds`. */
  rateLimited: number;
  retryAfterSeconds: number;
  /** The next this many API calls are answered 503. */
  serverErrors: number;
  /** While true, API calls get no answer (until it is set false or the tenant stops). */
  stalled: boolean;
}

export interface TenantState {
  readonly fixture: TenantFixture;
  readonly reloads: SimulatedReload[];
  readonly webhooks: Map<string, StoredWebhook>;
  readonly deliveries: Delivery[];
  /** Token → expiry (epoch ms). */
  readonly tokens: Map<string, number>;
  /** Calls of `POST /oauth/token`, good or bad. */
  tokenCalls: number;
  /** Every API call, `METHOD /path?query`, oldest first (the latest 10 000). */
  readonly calls: string[];
  readonly faults: TenantFaults;
  /** How long an issued token lives (seconds). */
  tokenLifetimeSeconds: number;
  /** False: `/api/core/webhooks` does not exist (a tenant before the core API), so clients fall back to v1. */
  coreWebhooks: boolean;
  /** What the licence API answers (cloud-license-routes.ts). */
  readonly licences: SimulatedLicences;
  readonly now: () => number;
}

export interface SimulatedLicences {
  /** Professional seats assigned (the overview's `unitsUsed` of `professional`). */
  professionalUsed: number;
  /** While true, the licence routes answer 404 "License not found", as a tenant without a licence does. */
  missing: boolean;
}

export function createTenantState(fixture: TenantFixture, now: () => number = Date.now): TenantState {
  return {
    fixture,
    reloads: [],
    webhooks: new Map(),
    deliveries: [],
    tokens: new Map(),
    tokenCalls: 0,
    calls: [],
    faults: { rateLimited: 0, retryAfterSeconds: 1, serverErrors: 0, stalled: false },
    tokenLifetimeSeconds: 3600,
    coreWebhooks: true,
    licences: { professionalUsed: 15, missing: false },
    now,
  };
}

export const hexId = (bytes = 12) => randomBytes(bytes).toString("hex");

export const uuid = () => {
  const h = randomBytes(16).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export interface FinishReloadOptions {
  readonly status: "SUCCEEDED" | "FAILED" | "CANCELED" | "EXCEEDED_LIMIT";
  /** Which of the tenant's apps (default the first). */
  readonly appIndex?: number;
  /** When it ended (default now). */
  readonly endMs?: number;
  readonly type?: string;
}

function scriptLog(appName: string, failed: boolean): string {
  const lines = [
    "Execution started.",
    `App: ${appName}`,
    "Sales << Sales.qvd 13,456 Lines fetched",
    ...(failed ? ["Field 'Amount' not found", "Execution failed."] : ["Execution finished."]),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

/** A reload of one of the tenant's apps that just ended, kept in its reloads (and so its audits). */
export function finishReload(state: TenantState, options: FinishReloadOptions): SimulatedReload {
  const { fixture } = state;
  const app = fixture.apps[options.appIndex ?? 0] ?? fixture.apps[0];
  if (app === undefined) throw new Error(`tenant ${fixture.name} has no app`);
  const end = options.endMs ?? state.now();
  const failed = options.status === "FAILED" || options.status === "EXCEEDED_LIMIT";
  const reload: SimulatedReload = {
    id: hexId(),
    appId: app.id,
    tenantId: fixture.tenantId,
    userId: app.ownerId,
    type: options.type ?? "chronos",
    status: options.status,
    partial: false,
    creationTime: new Date(end - 65_000).toISOString(),
    startTime: new Date(end - 60_000).toISOString(),
    endTime: new Date(end).toISOString(),
    ...(failed ? { errorCode: "EngineReloadError", errorMessage: "Field 'Amount' not found" } : {}),
    scriptLog: scriptLog(app.name, failed),
    eventId: uuid(),
  };
  state.reloads.push(reload);
  return reload;
}

export function recordCall(state: TenantState, call: string): void {
  state.calls.push(call);
  if (state.calls.length > 10_000) state.calls.splice(0, state.calls.length - 10_000);
}

/** A webhook registered as through the management console: enabled, for finished reloads, signed with the fixture's secret. */
export function addWebhook(state: TenantState, url: string): StoredWebhook {
  const now = new Date(state.now()).toISOString();
  const webhook: StoredWebhook = {
    id: hexId(),
    name: "Steward (simulated)",
    url,
    eventTypes: ["com.qlik.v1.reload.finished"],
    level: "tenant",
    enabled: true,
    description: "registered by steward simulate-qlik-cloud",
    secret: state.fixture.webhookSecret,
    headers: {},
    enableCloudEventDelivery: true,
    createdAt: now,
    updatedAt: now,
    api: "core",
  };
  state.webhooks.set(webhook.id, webhook);
  return webhook;
}
