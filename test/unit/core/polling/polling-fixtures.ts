/**
 * Shared inputs of the polling mapper tests: an engine health check as a QSEoW engine answers it
 * (the fields Butler SOS reads from it), a virtual proxy's session list, config slices parsed by the real
 * schemas (defaults applied) and an app-name cache.
 */
import * as v from "valibot";
import type { ObsPlatformConfig } from "../../../../core/config/schema/config.ts";
import { obsPlatformSchema } from "../../../../core/config/schema/obs-platform.ts";
import type { AppNameCache, EngineHealth, ProxySession, ProxySessionList } from "../../../../core/ports.ts";

export const SALES_ID = "3a8f2c6e-1b4d-4e7a-9c2f-5d6e7f8a9b0c";
export const FINANCE_ID = "7c1d9e2f-3a4b-4c5d-8e6f-0a1b2c3d4e5f";
export const UNKNOWN_ID = "0f0e0d0c-0b0a-4908-8706-050403020100";
export const SESSION_APP_A = "SessionApp_1c2d3e4f-aaaa-bbbb-cccc-111111111111";
export const SESSION_APP_B = "SessionApp_0a0b0c0d-aaaa-bbbb-cccc-222222222222";

/** The engine's started time 2021-11-09 15:37:26.028 at +02:00, i.e. 13:37:26.028 UTC. */
export const STARTED = "20211109T153726.028+0200";
export const STARTED_MS = Date.UTC(2021, 10, 9, 13, 37, 26, 28);

export const HEALTH: EngineHealth = {
  version: "12.1306.1",
  started: STARTED,
  mem: { committed: 4107.5, allocated: 4213.25, free: 10512.75 },
  cpu: { total: 3.6 },
  session: { active: 2, total: 5 },
  apps: {
    active_docs: [SALES_ID, SESSION_APP_A],
    loaded_docs: [UNKNOWN_ID, SALES_ID, FINANCE_ID, SESSION_APP_B, SESSION_APP_A],
    in_memory_docs: [FINANCE_ID.toUpperCase(), SALES_ID],
    calls: 4567,
    selections: 123,
  },
  users: { active: 1, total: 3 },
  cache: { hits: 120, lookups: 360, added: 200, replaced: 7, bytes_added: 1048576 },
  saturated: false,
};

export const SESSIONS: readonly ProxySession[] = [
  { userDirectory: "LAB", userId: "anna", sessionId: "e1a1f0a8-0c7e-4c1b-9d9e-000000000001" },
  { userDirectory: "LAB", userId: "svc_monitor", sessionId: "e1a1f0a8-0c7e-4c1b-9d9e-000000000002" },
  { userDirectory: "LAB", userId: "anna", sessionId: "e1a1f0a8-0c7e-4c1b-9d9e-000000000003" },
  { userDirectory: "CORP", userId: "bob", sessionId: "e1a1f0a8-0c7e-4c1b-9d9e-000000000004" },
];

export const SESSION_LIST: ProxySessionList = {
  sessions: SESSIONS,
  raw: SESSIONS.map((s) => ({
    UserDirectory: s.userDirectory,
    UserId: s.userId,
    SessionId: s.sessionId,
    Attributes: [{ email: `${s.userId}@example.com` }],
  })),
};

export const TAGS = {
  server_group: "PROD",
  host: "sense1.example.com",
  server_name: "sense1",
  server_description: "Central node",
} as const;

/** The app-name cache after a fetch: keys are lower-case ids. */
export function appNames(): AppNameCache {
  const names = new Map([
    [SALES_ID, "Sales"],
    [FINANCE_ID, "Finance"],
  ]);
  return { nameOf: (id) => names.get(id) };
}

export function obsPlatform(input: Record<string, unknown> = {}): ObsPlatformConfig {
  return v.parse(obsPlatformSchema, input);
}
