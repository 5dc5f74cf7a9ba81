/**
 * The TenantClient over HTTP: one per tenant, so that a tenant's token, rate limit, waits and
 * calls are its own and never hold up another's (each has its own call slots, its own pause after
 * a 429, its own timers, and its own connections: `fetch` pools them per origin).
 *
 * How a call goes:
 * - it waits for one of the tenant's CONCURRENT_CALLS slots, and until a 429's pause is over;
 * - with an OAuth client it carries the cached token (oauth-token-cache.ts); a 401 drops that
 *   token and the call is made once more with a new one; a second 401 is the answer. An API key
 *   is sent as it is, and its 401 is final;
 * - a 429 pauses every call of the tenant for its `Retry-After` (seconds or a date; 1 s when
 *   absent, as Qlik's own clients do), then the call is made again, at most RATE_LIMIT_RETRIES
 *   times; a pause longer than MAX_RETRY_AFTER_MS is not waited (the next poll round tries again);
 * - a 5xx, a time-out or a network failure is tried again after 1, 2 and 4 s, except for a POST,
 *   which the tenant may have carried out before failing (a webhook would be created twice);
 * - every attempt has a time limit (tenant-attempt.ts), and no redirect is followed.
 * Each failed attempt and each token is reported (TenantCallEvents) for the metrics.
 */
import { createConcurrencyLimit } from "../../agent-destinations/index.ts";
import type { Clock, TenantClient, TenantRequest } from "../../ports.ts";
import { qlikErrorOf, TenantApiError, type TenantCallEvents } from "../../qlik-cloud/index.ts";
import { abortableWait } from "../../shared/abortable-wait.ts";
import { type FetchedToken, OAuthTokenCache } from "./oauth-token-cache.ts";
import { type AttemptAnswer, type AttemptOptions, attempt } from "./tenant-attempt.ts";

/** A credential: an OAuth machine-to-machine client, or an API key. */
export type TenantCredential =
  | { readonly oauth: { readonly clientId: string; readonly clientSecret: string } }
  | { readonly apiKey: string };

export interface TenantHttpClientOptions {
  /** The tenant's name. */
  readonly tenant: string;
  readonly url: string;
  readonly credential: TenantCredential;
  readonly clock: Clock;
  readonly events: TenantCallEvents;
  /** Time limit of each attempt (default 30 s, as Butler's cloud calls). */
  readonly timeoutMs?: number;
  /** Largest answer read (default 32 MiB: a script log can be long). */
  readonly maxBodyBytes?: number;
}

/** The scope requested with the token: the tenant administrator's, which reading every reload needs. */
export const TOKEN_SCOPE = "admin_classic";
export const CONCURRENT_CALLS = 4;
export const RATE_LIMIT_RETRIES = 5;
export const MAX_RETRY_AFTER_MS = 120_000;
export const BACKOFF_MS = [1000, 2000, 4000] as const;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_RETRY_AFTER_MS = 1000;

export function createTenantHttpClient(options: TenantHttpClientOptions): TenantClient {
  return new HttpTenantClient(options);
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`. */
export function retryAfterMs(header: string | null, now: number): number {
  if (header === null || header.trim() === "") return DEFAULT_RETRY_AFTER_MS;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : DEFAULT_RETRY_AFTER_MS;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

class HttpTenantClient implements TenantClient {
  readonly tenant: string;
  private readonly attemptOptions: AttemptOptions;
  private readonly slots = createConcurrencyLimit(CONCURRENT_CALLS);
  private readonly tokens: OAuthTokenCache | undefined;
  /** Until when a 429 paused the tenant's calls (epoch ms). */
  private pausedUntil = 0;

  constructor(private readonly options: TenantHttpClientOptions) {
    this.tenant = options.tenant;
    this.attemptOptions = {
      tenant: options.tenant,
      baseUrl: new URL(options.url),
      clock: options.clock,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    };
    const { credential } = options;
    this.tokens =
      "oauth" in credential
        ? new OAuthTokenCache(() => this.fetchToken(credential.oauth), options.clock)
        : undefined;
  }

  async json(request: TenantRequest): Promise<unknown> {
    return parseJson((await this.call(request, "application/json")).text);
  }

  async text(request: TenantRequest): Promise<string> {
    return (await this.call(request, "text/plain, */*")).text;
  }

  tokenExpiresAt(): number | undefined {
    return this.tokens?.expiresAt();
  }

  private call(request: TenantRequest, accept: string): Promise<AttemptAnswer> {
    return this.slots.run(() => this.withRetries(request, accept));
  }

  private async withRetries(request: TenantRequest, accept: string): Promise<AttemptAnswer> {
    const { clock, events } = this.options;
    const method = request.method ?? "GET";
    let refreshed = false;
    let rateLimited = 0;
    let failures = 0;
    for (;;) {
      await this.wait(this.pausedUntil - clock.now(), request);
      const credential = await this.authorization();
      let answer: AttemptAnswer;
      try {
        answer = await attempt(this.attemptOptions, request, { accept, authorization: credential.header });
      } catch (error) {
        const status = (error as TenantApiError).status;
        events.callFailed(this.tenant, String(status));
        const backoff = BACKOFF_MS[failures];
        if ((status !== "timeout" && status !== "network") || method === "POST" || backoff === undefined)
          throw error;
        failures += 1;
        await this.wait(backoff, request);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) return answer;
      events.callFailed(this.tenant, String(answer.status));
      if (answer.status === 401 && credential.token !== undefined && !refreshed) {
        refreshed = true;
        this.tokens?.invalidate(credential.token);
        continue;
      }
      if (answer.status === 429 && rateLimited < RATE_LIMIT_RETRIES) {
        const wait = retryAfterMs(answer.headers.get("retry-after"), clock.now());
        if (wait <= MAX_RETRY_AFTER_MS) {
          rateLimited += 1;
          this.pausedUntil = Math.max(this.pausedUntil, clock.now() + wait);
          continue;
        }
      }
      const backoff = BACKOFF_MS[failures];
      if (answer.status >= 500 && method !== "POST" && backoff !== undefined) {
        failures += 1;
        await this.wait(backoff, request);
        continue;
      }
      throw this.answerError(request, answer);
    }
  }

  private async authorization(): Promise<{ header: string; token?: string }> {
    const { credential } = this.options;
    if ("apiKey" in credential) return { header: `Bearer ${credential.apiKey}` };
    const token = await (this.tokens as OAuthTokenCache).current();
    return { header: `Bearer ${token}`, token };
  }

  private async fetchToken(oauth: { clientId: string; clientSecret: string }): Promise<FetchedToken> {
    const { clock, events } = this.options;
    const request: TenantRequest = {
      method: "POST",
      path: "/oauth/token",
      body: {
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
        grant_type: "client_credentials",
        scope: TOKEN_SCOPE,
      },
    };
    try {
      const answer = await attempt(this.attemptOptions, request, { accept: "application/json" });
      if (answer.status < 200 || answer.status >= 300) {
        events.callFailed(this.tenant, String(answer.status));
        throw this.answerError(request, answer);
      }
      const token = tokenOf(parseJson(answer.text), clock.now());
      if (token === undefined)
        throw new TenantApiError({
          tenant: this.tenant,
          method: "POST",
          path: request.path,
          status: answer.status,
          detail: "the answer holds no access_token",
        });
      events.tokenFetched(this.tenant, token.expiresAtMs);
      return token;
    } catch (error) {
      if (error instanceof TenantApiError && typeof error.status !== "number")
        events.callFailed(this.tenant, error.status);
      events.tokenFailed(this.tenant, error);
      throw error;
    }
  }

  private answerError(request: TenantRequest, answer: AttemptAnswer): TenantApiError {
    const { code, detail } = qlikErrorOf(parseJson(answer.text));
    return new TenantApiError({
      tenant: this.tenant,
      method: request.method ?? "GET",
      path: request.path,
      status: answer.status,
      code,
      detail,
    });
  }

  /** Waits `ms` on the clock; given up (TenantApiError "aborted") when the request's signal fires. */
  private wait(ms: number, request: TenantRequest): Promise<void> {
    return abortableWait(
      ms,
      this.options.clock,
      request.signal,
      () =>
        new TenantApiError({
          tenant: this.tenant,
          method: request.method ?? "GET",
          path: request.path,
          status: "aborted",
        }),
    );
  }
}

/**
 * The token of a `/oauth/token` answer and when it expires: from `expires_in` (seconds) when given,
 * since it is relative and so holds whatever the difference between this host's clock and Qlik's;
 * else from `expires_at` (ISO 8601); an hour when neither is there.
 */
function tokenOf(body: unknown, now: number): FetchedToken | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { access_token, expires_at, expires_in } = body as Record<string, unknown>;
  if (typeof access_token !== "string" || access_token === "") return undefined;
  if (typeof expires_in === "number" && Number.isFinite(expires_in) && expires_in > 0)
    return { accessToken: access_token, expiresAtMs: now + expires_in * 1000 };
  const at = typeof expires_at === "string" ? Date.parse(expires_at) : Number.NaN;
  return { accessToken: access_token, expiresAtMs: Number.isFinite(at) ? at : now + 3_600_000 };
}
