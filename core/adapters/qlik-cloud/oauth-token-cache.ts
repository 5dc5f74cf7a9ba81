/**
 * A tenant's OAuth machine-to-machine token, fetched with the client credentials grant and kept
 * until shortly before it expires: Qlik limits `POST /oauth/token` to 100 calls a minute, so a
 * token per call would soon be refused. It is refreshed a tenth of its lifetime (at most five
 * minutes) before it expires (tenant-http-client.ts reads when), so no call goes out with a token
 * about to lapse. Concurrent callers share one fetch, and a token
 * the tenant refused (a 401) is dropped so that the next call fetches a new one. Tokens are opaque
 * and never inspected.
 */
import type { Clock } from "../../ports.ts";

export interface FetchedToken {
  readonly accessToken: string;
  readonly expiresAtMs: number;
}

/** Longest margin before expiry at which a token is fetched again. */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;

interface HeldToken extends FetchedToken {
  readonly refreshAtMs: number;
}

export class OAuthTokenCache {
  private held: HeldToken | undefined;
  private fetching: Promise<HeldToken> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<FetchedToken>,
    private readonly clock: Clock,
  ) {}

  /** A token valid for a while yet, fetched when none is held or the one held is due. */
  async current(): Promise<string> {
    const held = this.held;
    if (held !== undefined && this.clock.now() < held.refreshAtMs) return held.accessToken;
    this.fetching ??= this.fetchAndHold().finally(() => {
      this.fetching = undefined;
    });
    return (await this.fetching).accessToken;
  }

  /** Drops `token` (the tenant refused it); a newer one already held is kept. */
  invalidate(token: string): void {
    if (this.held?.accessToken === token) this.held = undefined;
  }

  expiresAt(): number | undefined {
    return this.held?.expiresAtMs;
  }

  private async fetchAndHold(): Promise<HeldToken> {
    const fetchedAt = this.clock.now();
    const token = await this.fetchToken();
    const lifetime = Math.max(0, token.expiresAtMs - fetchedAt);
    const margin = Math.min(MAX_REFRESH_MARGIN_MS, lifetime / 10);
    this.held = { ...token, refreshAtMs: token.expiresAtMs - margin };
    return this.held;
  }
}
