/**
 * What a tenant client reports as it works, for the inputs' metrics and status: each token it
 * fetched (or failed to), and each answer other than 2xx and each call that failed, by status
 * (`401`, `429`, `503`, `timeout`, `network`, `redirect`). Retried attempts are reported one by
 * one, so that a tenant that rate-limits Steward shows it even when the retries succeed.
 */
export interface TenantCallEvents {
  tokenFetched(tenant: string, expiresAtMs: number): void;
  tokenFailed(tenant: string, error: unknown): void;
  callFailed(tenant: string, status: string): void;
}

/** Reports nothing: for a client used once (the webhook command). */
export const IGNORED_CALL_EVENTS: TenantCallEvents = {
  tokenFetched: () => undefined,
  tokenFailed: () => undefined,
  callFailed: () => undefined,
};
