/**
 * The port outgoing webhooks are called through (core/adapters/http-clients/webhook-client.ts is
 * the HTTP one). The URL may carry a token, so a client never puts it in an error. Its contract
 * suite is test/contracts/webhook-client.contract.ts.
 */

export type WebhookMethod = "GET" | "POST" | "PUT";

export type WebhookValue = string | number | boolean | null;

export interface WebhookCall {
  readonly url: string;
  readonly method: WebhookMethod;
  /** GET: query parameters (null as an empty value); POST and PUT: a JSON body with the values' own types. */
  readonly payload: Readonly<Record<string, WebhookValue>>;
  readonly timeoutMs: number;
  /** A CA of the operator's (PEM file, read at every call) and whether an unverified certificate is refused. */
  readonly tls?: { readonly caFile: string; readonly rejectUnauthorized: boolean };
}

export interface WebhookClient {
  /** Resolves on a 2xx answer; rejects with the reason otherwise (no answer in time, refused, unreadable CA). */
  call(request: WebhookCall): Promise<void>;
}
