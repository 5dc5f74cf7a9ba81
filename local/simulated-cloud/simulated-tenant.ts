/**
 * One simulated Qlik Cloud tenant on loopback: a plain HTTP listener (real tenants are HTTPS only;
 * Steward accepts any http(s) URL so that this works) serving the token endpoint, the APIs Steward
 * uses (tenant-api-routes.ts, cloud-license-routes.ts, webhook-routes.ts) behind a bearer check,
 * and the faults tests steer (tenant-state.ts). `POST /oauth/token` takes JSON or form bodies,
 * counts every call and issues tokens that expire after `tokenLifetimeSeconds`; a missing,
 * unknown or expired token (or API key) gets 401 with Qlik's error body; a 429 carries
 * `Retry-After` and the body Qlik sends. Bodies are read up to 1 MiB.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerLicenseRoute } from "./cloud-license-routes.ts";
import { json, notFound, problem, type RouteAnswer, type RouteRequest } from "./route-answers.ts";
import { type DeliverOptions, deliverReload } from "./signed-event-sender.ts";
import { answerReadRoute } from "./tenant-api-routes.ts";
import type { TenantFixture } from "./tenant-fixtures.ts";
import {
  createTenantState,
  type Delivery,
  type FinishReloadOptions,
  finishReload,
  hexId,
  recordCall,
  type SimulatedReload,
  type TenantState,
} from "./tenant-state.ts";
import { answerWebhookRoute } from "./webhook-routes.ts";

const MAX_BODY_BYTES = 1024 * 1024;

export interface SimulatedTenant {
  readonly fixture: TenantFixture;
  readonly state: TenantState;
  /** `http://host:port`, the tenant's `url` in Steward's configuration. */
  readonly url: string;
  /** A reload that just ended (also listed by the reloads and audits APIs). */
  finishReload(options: FinishReloadOptions): SimulatedReload;
  /** Sends the reload's event to the tenant's enabled webhooks. */
  deliver(reload: SimulatedReload, options?: DeliverOptions): Promise<Delivery[]>;
  /** Holds every API call without an answer until called with false (then they get 503). */
  stall(on: boolean): void;
  /** Forgets every token issued: the next call with one gets 401. */
  revokeTokens(): void;
  stop(): Promise<void>;
}

export interface SimulatedTenantOptions {
  readonly fixture: TenantFixture;
  readonly host: string;
  /** 0: a free port. */
  readonly port: number;
  readonly now?: () => number;
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    request.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () =>
      resolve(total > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")),
    );
    request.on("error", reject);
  });
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === "") return undefined;
  if (contentType?.startsWith("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function write(response: ServerResponse, answer: RouteAnswer): void {
  const headers: Record<string, string> = { ...answer.headers };
  let body: string | undefined;
  if (answer.body !== undefined) {
    const text = typeof answer.body === "string" && answer.contentType !== undefined;
    body = text ? (answer.body as string) : JSON.stringify(answer.body);
    headers["content-type"] = answer.contentType ?? "application/json; charset=utf-8";
  }
  response.writeHead(answer.status, headers).end(body);
}

function token(state: TenantState, body: unknown): RouteAnswer {
  state.tokenCalls += 1;
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const { fixture } = state;
  if (fields.grant_type !== "client_credentials")
    return problem(400, "OAUTH-2", "unsupported grant type", "grant_type must be client_credentials");
  if (fields.client_id !== fixture.clientId || fields.client_secret !== fixture.clientSecret)
    return problem(401, "OAUTH-1", "invalid client");
  const value = `sim-token-${hexId(16)}`;
  const expiresAt = state.now() + state.tokenLifetimeSeconds * 1000;
  state.tokens.set(value, expiresAt);
  return json(200, {
    access_token: value,
    token_type: "bearer",
    scope: typeof fields.scope === "string" ? fields.scope : "user_default",
    expires_in: state.tokenLifetimeSeconds,
    expires_at: new Date(expiresAt).toISOString(),
  });
}

function authorised(state: TenantState, header: string | undefined): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? "");
  if (match === null) return false;
  const value = match[1] as string;
  if (value === state.fixture.apiKey) return true;
  const expiresAt = state.tokens.get(value);
  return expiresAt !== undefined && state.now() < expiresAt;
}

/** A fault to answer with instead of the route, used up as it is answered. */
function faultAnswer(state: TenantState): RouteAnswer | undefined {
  const { faults } = state;
  if (faults.rateLimited > 0) {
    faults.rateLimited -= 1;
    const wait = faults.retryAfterSeconds;
    return {
      ...problem(
        429,
        "HTTP-429",
        "API rate limit reached.",
        `You need to wait ${wait} seconds until limit is lifted.`,
      ),
      headers: { "retry-after": String(wait) },
    };
  }
  if (faults.serverErrors > 0) {
    faults.serverErrors -= 1;
    return problem(503, "HTTP-503", "Service unavailable");
  }
  return undefined;
}

async function answerApi(state: TenantState, route: RouteRequest): Promise<RouteAnswer> {
  return (
    answerReadRoute(state, route) ??
    answerLicenseRoute(state, route) ??
    (await answerWebhookRoute(state, route)) ??
    notFound(`route ${route.method} ${route.path}`)
  );
}

export async function startSimulatedTenant(options: SimulatedTenantOptions): Promise<SimulatedTenant> {
  const state = createTenantState(options.fixture, options.now);
  const held = new Set<() => void>();
  let baseUrl = "";
  const server = createServer(async (request, response) => {
    const target = new URL(request.url ?? "/", baseUrl);
    const method = request.method ?? "GET";
    recordCall(state, `${method} ${target.pathname}${target.search}`);
    const text = await readBody(request);
    if (text === undefined) return write(response, problem(413, "HTTP-413", "Request entity too large"));
    const route: RouteRequest = {
      method,
      path: target.pathname,
      query: target.searchParams,
      body: parseBody(text, request.headers["content-type"]),
      baseUrl,
    };
    if (method === "POST" && target.pathname === "/oauth/token")
      return write(response, token(state, route.body));
    if (!target.pathname.startsWith("/api/")) return write(response, notFound(`route ${target.pathname}`));
    if (!authorised(state, request.headers.authorization))
      return write(
        response,
        problem(401, "HTTP-401", "Unauthorized", "missing, unknown or expired credential"),
      );
    if (state.faults.stalled) await new Promise<void>((resolve) => held.add(resolve));
    write(response, faultAnswer(state) ?? (await answerApi(state, route)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  const release = () => {
    for (const resolve of held) resolve();
    held.clear();
  };
  return {
    fixture: options.fixture,
    state,
    url: baseUrl,
    finishReload: (finish) => finishReload(state, finish),
    deliver: (reload, deliver) => deliverReload(state, reload, deliver),
    stall(on) {
      state.faults.stalled = on;
      if (!on) {
        state.faults.serverErrors += held.size;
        release();
      }
    },
    revokeTokens: () => state.tokens.clear(),
    async stop() {
      state.faults.stalled = false;
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
