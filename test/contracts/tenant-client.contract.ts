/**
 * The TenantClient contract, run by every adapter (tenant-client.test.ts) against two simulated
 * tenants on loopback, with a clock the tests move by hand wherever time decides: a token fetched
 * once for many calls and again once after a 401, `Retry-After` waited out, 5xx and time-outs
 * tried again after a back-off (a POST never), a time limit on every call, no redirect followed,
 * Qlik's error body in the error, and one tenant's waits and failures leaving the other's calls
 * alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Clock, TenantClient } from "../../core/ports.ts";
import { TenantApiError } from "../../core/qlik-cloud/tenant-api-error.ts";
import type { TenantCallEvents } from "../../core/qlik-cloud/tenant-call-events.ts";
import type { SimulatedTenant } from "../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../local/simulated-cloud/start-simulated-cloud.ts";
import { until } from "../helpers/eventually.ts";
import { createWaitingClock, type WaitingClock } from "../helpers/waiting-clock.ts";

export type ContractCredential =
  | { readonly oauth: { readonly clientId: string; readonly clientSecret: string } }
  | { readonly apiKey: string };

export interface TenantClientTarget {
  readonly tenant: string;
  readonly url: string;
  readonly credential: ContractCredential;
  readonly clock: Clock;
  readonly events: TenantCallEvents;
  readonly timeoutMs: number;
}

export type TenantClientFactory = (target: TenantClientTarget) => TenantClient;

const TIMEOUT_MS = 5000;

/** What the client reported, in order. */
function recordingEvents() {
  const seen: string[] = [];
  const events: TenantCallEvents = {
    tokenFetched: (tenant) => void seen.push(`${tenant} token`),
    tokenFailed: (tenant) => void seen.push(`${tenant} token failed`),
    callFailed: (tenant, status) => void seen.push(`${tenant} ${status}`),
  };
  return { seen, events };
}

function reset(tenant: SimulatedTenant): void {
  const { state } = tenant;
  state.tokens.clear();
  state.tokenCalls = 0;
  state.calls.length = 0;
  Object.assign(state.faults, { rateLimited: 0, retryAfterSeconds: 1, serverErrors: 0, stalled: false });
}

const apiCalls = (tenant: SimulatedTenant) => tenant.state.calls.filter((call) => call.includes(" /api/"));

/** Settles to the error a promise rejects with, or fails when it resolves. */
async function failureOf(promise: Promise<unknown>): Promise<TenantApiError> {
  const error = await promise.then(
    () => expect.fail("expected the call to fail"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TenantApiError);
  return error as TenantApiError;
}

export function describeTenantClientContract(name: string, create: TenantClientFactory): void {
  describe(`TenantClient contract: ${name}`, () => {
    let cloud: SimulatedCloud;
    let a: SimulatedTenant;
    let b: SimulatedTenant;
    let clock: WaitingClock;
    let recorded: ReturnType<typeof recordingEvents>;

    beforeAll(async () => {
      cloud = await startSimulatedCloud({ tenants: 2 });
      [a, b] = cloud.tenants as [SimulatedTenant, SimulatedTenant];
    });
    afterAll(() => cloud.stop());
    beforeEach(() => {
      reset(a);
      reset(b);
      clock = createWaitingClock();
      recorded = recordingEvents();
    });

    const oauthClient = (tenant: SimulatedTenant, timeoutMs = TIMEOUT_MS) =>
      create({
        tenant: tenant.fixture.name,
        url: tenant.url,
        credential: {
          oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret },
        },
        clock,
        events: recorded.events,
        timeoutMs,
      });

    describeCredentials(() => ({ a, clock, recorded, oauthClient, create }));
    describeWaits(() => ({ a, b, clock, recorded, oauthClient }));
    describeAnswers(() => ({ a, oauthClient }));
  });
}

interface Context {
  a: SimulatedTenant;
  b: SimulatedTenant;
  clock: WaitingClock;
  recorded: ReturnType<typeof recordingEvents>;
  oauthClient: (tenant: SimulatedTenant, timeoutMs?: number) => TenantClient;
  create: TenantClientFactory;
}

function describeCredentials(context: () => Omit<Context, "b">): void {
  describe("credentials", () => {
    it("fetches one token for many calls, and says when it expires", async () => {
      const { a, clock, recorded, oauthClient } = context();
      const client = oauthClient(a);
      await Promise.all(Array.from({ length: 12 }, () => client.json({ path: "/api/v1/users/me" })));
      await client.json({ path: "/api/v1/reloads" });

      expect(a.state.tokenCalls).toBe(1);
      expect(apiCalls(a)).toHaveLength(13);
      expect(client.tokenExpiresAt()).toBe(clock.now() + 3600 * 1000);
      expect(recorded.seen).toEqual(["sim-a token"]);
    });

    it("fetches a new token before the old one expires, not after", async () => {
      const { a, clock, oauthClient } = context();
      const client = oauthClient(a);
      await client.json({ path: "/api/v1/users/me" });
      clock.advance(3600 * 1000 - 5 * 60_000 - 1);
      await client.json({ path: "/api/v1/users/me" });
      expect(a.state.tokenCalls).toBe(1);
      clock.advance(1);
      await client.json({ path: "/api/v1/users/me" });
      expect(a.state.tokenCalls).toBe(2);
    });

    it("fetches a new token once when the tenant refuses the one it holds, and the call succeeds", async () => {
      const { a, recorded, oauthClient } = context();
      const client = oauthClient(a);
      await client.json({ path: "/api/v1/users/me" });
      a.revokeTokens();

      await expect(client.json({ path: "/api/v1/users/me" })).resolves.toMatchObject({ status: "active" });

      expect(a.state.tokenCalls).toBe(2);
      expect(recorded.seen).toEqual(["sim-a token", "sim-a 401", "sim-a token"]);
    });

    it("reports refused client credentials with the tenant's reason and calls the API not at all", async () => {
      const { a, clock, recorded, create } = context();
      const client = create({
        tenant: "sim-a",
        url: a.url,
        credential: { oauth: { clientId: a.fixture.clientId, clientSecret: "wrong" } },
        clock,
        events: recorded.events,
        timeoutMs: TIMEOUT_MS,
      });

      const error = await failureOf(client.json({ path: "/api/v1/reloads" }));

      expect(error.status).toBe(401);
      expect(error.message).toBe("Qlik Cloud tenant sim-a: POST /oauth/token answered 401: invalid client");
      expect(error.message).not.toContain("wrong");
      expect(apiCalls(a)).toEqual([]);
      expect(recorded.seen).toEqual(["sim-a 401", "sim-a token failed"]);
    });

    it("sends an API key as it is, fetches no token, and takes its 401 as the answer", async () => {
      const { a, clock, recorded, create } = context();
      const client = (apiKey: string) =>
        create({
          tenant: "sim-a",
          url: a.url,
          credential: { apiKey },
          clock,
          events: recorded.events,
          timeoutMs: TIMEOUT_MS,
        });

      await client(a.fixture.apiKey).json({ path: "/api/v1/users/me" });
      const error = await failureOf(client("not-the-key").json({ path: "/api/v1/users/me" }));

      expect(error.status).toBe(401);
      expect(a.state.tokenCalls).toBe(0);
      expect(apiCalls(a)).toHaveLength(2);
      expect(client(a.fixture.apiKey).tokenExpiresAt()).toBeUndefined();
    });
  });
}

function describeWaits(context: () => Omit<Context, "create">): void {
  describe("waits", () => {
    it("waits out a 429's Retry-After before calling again, and then succeeds", async () => {
      const { a, clock, recorded, oauthClient } = context();
      const client = oauthClient(a);
      Object.assign(a.state.faults, { rateLimited: 1, retryAfterSeconds: 7 });
      const call = client.json({ path: "/api/v1/reloads" });

      await until(() => clock.pending().includes(7000));
      clock.advance(6999);
      expect(apiCalls(a)).toHaveLength(1);
      clock.advance(1);

      await expect(call).resolves.toMatchObject({ data: [] });
      expect(apiCalls(a)).toHaveLength(2);
      expect(recorded.seen).toContain("sim-a 429");
    });

    it("backs off 1 s then 2 s after 5xx answers of a GET, and succeeds", async () => {
      const { a, clock, oauthClient } = context();
      const client = oauthClient(a);
      a.state.faults.serverErrors = 2;
      const call = client.json({ path: "/api/v1/reloads" });

      await until(() => clock.pending().includes(1000));
      clock.advance(1000);
      await until(() => clock.pending().includes(2000));
      clock.advance(2000);

      await expect(call).resolves.toMatchObject({ data: [] });
      expect(apiCalls(a)).toHaveLength(3);
    });

    it("does not repeat a POST the tenant answered 5xx", async () => {
      const { a, oauthClient } = context();
      a.state.faults.serverErrors = 1;
      const body = { name: "x", url: "https://steward.example.com/hook", eventTypes: [] };

      const error = await failureOf(
        oauthClient(a).json({ method: "POST", path: "/api/core/webhooks", body }),
      );

      expect(error.status).toBe(503);
      expect(apiCalls(a).filter((call) => call.startsWith("POST"))).toHaveLength(1);
    });

    it("gives up a call the tenant does not answer within the time limit, after trying it again", async () => {
      const { a, clock, recorded, oauthClient } = context();
      const client = oauthClient(a, 1000);
      await client.json({ path: "/api/v1/users/me" });
      a.stall(true);
      const call = failureOf(client.json({ path: "/api/v1/reloads" }));

      for (const backoff of [1000, 2000, 4000]) {
        await until(() => clock.pending()[0] === 1000 && apiCalls(a).length >= 2);
        clock.advance(1000);
        await until(() => clock.pending().includes(backoff));
        clock.advance(backoff);
      }
      await until(() => clock.pending()[0] === 1000);
      clock.advance(1000);

      const error = await call;
      a.stall(false);
      expect(error.status).toBe("timeout");
      expect(apiCalls(a).filter((c) => c.startsWith("GET /api/v1/reloads"))).toHaveLength(4);
      expect(recorded.seen.filter((event) => event === "sim-a timeout")).toHaveLength(4);
    });

    it("keeps another tenant's calls going while one tenant stalls and rate-limits", async () => {
      const { a, b, clock, oauthClient } = context();
      const clientA = oauthClient(a);
      const clientB = oauthClient(b);
      await Promise.all([
        clientA.json({ path: "/api/v1/users/me" }),
        clientB.json({ path: "/api/v1/users/me" }),
      ]);
      Object.assign(a.state.faults, { rateLimited: 1, retryAfterSeconds: 60 });
      const giveUp = new AbortController();
      const paused = clientA.json({ path: "/api/v1/reloads", signal: giveUp.signal }).catch((error) => error);
      await until(() => clock.pending().includes(60_000));
      a.stall(true);
      const stalled = Array.from({ length: 6 }, () =>
        clientA.json({ path: "/api/v1/audits", signal: giveUp.signal }).catch((error) => error),
      );

      const started = Date.now();
      await Promise.all(Array.from({ length: 10 }, () => clientB.json({ path: "/api/v1/reloads" })));

      expect(Date.now() - started).toBeLessThan(2000);
      expect(apiCalls(b)).toHaveLength(11);
      giveUp.abort();
      for (const outcome of await Promise.all([paused, ...stalled]))
        expect(outcome).toMatchObject({ status: "aborted" });
      a.stall(false);
    });
  });
}

function describeAnswers(context: () => Pick<Context, "a" | "oauthClient">): void {
  describe("answers", () => {
    it("does not follow a redirect, and names where it pointed", async () => {
      const { a, oauthClient } = context();
      const error = await failureOf(oauthClient(a).json({ path: "/api/v1/tenants/me" }));
      expect(error.status).toBe("redirect");
      expect(error.message).toContain(`302 to ${a.url}/api/v1/tenants/${a.fixture.tenantId}`);
      expect(apiCalls(a)).toEqual(["GET /api/v1/tenants/me"]);
    });

    it("throws the tenant's status and Qlik's error for an answer that is not 2xx", async () => {
      const { a, oauthClient } = context();
      const error = await failureOf(oauthClient(a).json({ path: "/api/v1/reloads/nope" }));
      expect(error.status).toBe(404);
      expect(error.code).toBe("HTTP-404");
      expect(error.message).toBe(
        "Qlik Cloud tenant sim-a: GET /api/v1/reloads/nope answered 404: Not found - reload nope not found",
      );
    });

    it("sends the query and a JSON body, and reads a text answer as text", async () => {
      const { a, oauthClient } = context();
      const client = oauthClient(a);
      const reload = a.finishReload({ status: "FAILED" });
      const listed = await client.json({
        path: "/api/v1/reloads",
        query: { appId: reload.appId, limit: 5, next: undefined },
      });
      const log = await client.text({ path: `/api/v1/apps/${reload.appId}/reloads/logs/${reload.id}` });
      const created = await client.json({
        method: "POST",
        path: "/api/v1/webhooks",
        body: {
          name: "contract",
          url: "https://steward.example.com/hook",
          eventTypes: ["com.qlik.v1.reload.finished"],
        },
      });

      expect((listed as { data: { id: string }[] }).data.map((item) => item.id)).toContain(reload.id);
      expect(apiCalls(a)).toContain(`GET /api/v1/reloads?appId=${reload.appId}&limit=5`);
      expect(log).toContain("\r\nExecution failed.\r\n");
      expect(created).toMatchObject({ name: "contract", secretKeyAdded: false });
    });

    it("gives up at once when its signal is aborted", async () => {
      const { a, oauthClient } = context();
      const controller = new AbortController();
      controller.abort();
      const error = await failureOf(
        oauthClient(a).json({ path: "/api/v1/reloads", signal: controller.signal }),
      );
      expect(error.status).toBe("aborted");
    });
  });
}
