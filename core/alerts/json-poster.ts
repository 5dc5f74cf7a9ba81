/**
 * The port chat and webhook alerts are posted through (core/adapters/http-clients/alert-poster.ts
 * is the HTTP one). The URL carries the service's token, so the poster never puts it in an error.
 */

export interface JsonPoster {
  /** POSTs `body` as JSON; rejects on no answer within `timeoutMs` or a status outside 2xx. */
  post(url: string, body: unknown, timeoutMs: number): Promise<void>;
}
