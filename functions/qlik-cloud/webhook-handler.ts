/**
 * `POST /api/v1/qlik-cloud/webhooks/{tenantName}` as one runtime-neutral function: a request in,
 * an answer out, for any front door that can give the body's raw bytes (locally the ingest API's
 * node:http listener; a cloud function can wrap it the same way). Checks in this order, each
 * before the work of the next: the route (404 for another path or a tenant whose webhook is off,
 * 405 for another method), the size (413 over 1 MiB, from Content-Length and while reading; the
 * body of an unknown tenant is never read), then the receiver (core/qlik-cloud/webhook-receiver.ts:
 * signature 401, not an event 400, stored 202, already known 200, not handled 200, not stored 503
 * with Retry-After). Answers are small JSON bodies with the security headers; none carries an
 * internal detail. The function never throws.
 */

import type { Logger } from "../../core/ports.ts";
import { SIGNATURE_HEADER, type WebhookOutcome, type WebhookReceiver } from "../../core/qlik-cloud/index.ts";
import { describeError } from "../../core/shared/describe-error.ts";
import { RequestAbortedError } from "../http/request-aborted-error.ts";
import { securityHeaderRecord } from "../http/security-headers.ts";

export const QLIK_CLOUD_WEBHOOK_PREFIX = "/api/v1/qlik-cloud/webhooks/";

/** Largest delivery taken: a reload event is a few kB; Qlik's bodies stay far below. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** A request as the webhook route reads it; each front door builds one from its runtime's request. */
export interface WebhookHttpRequest {
  readonly method: string;
  /** Without the query. */
  readonly path: string;
  header(name: string): string | undefined;
  /**
   * The body's bytes as received, or undefined as soon as they exceed `maxBytes`. Rejects with
   * RequestAbortedError when the client goes away before the end.
   */
  readBytes(maxBytes: number): Promise<Uint8Array | undefined>;
}

export interface WebhookAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export type WebhookHandler = (request: WebhookHttpRequest) => Promise<WebhookAnswer>;

function answer(
  status: number,
  body: Record<string, string>,
  extra: Record<string, string> = {},
): WebhookAnswer {
  const headers = securityHeaderRecord();
  headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(extra)) headers[name] = value;
  return { status, headers, body: JSON.stringify(body) };
}

const refused = (status: number, reason: string, extra?: Record<string, string>) =>
  answer(status, { status: "error", reason }, extra);

function outcomeAnswer(outcome: WebhookOutcome): WebhookAnswer {
  switch (outcome.kind) {
    case "taken":
      return outcome.outcome === "new"
        ? answer(202, { status: "accepted", outcome: "stored" })
        : answer(200, { status: "accepted", outcome: "duplicate" });
    case "unknown-type":
      return answer(200, {
        status: "accepted",
        outcome: "ignored",
        reason: `event type ${outcome.type} is not handled`,
      });
    case "unfinished":
      return answer(200, {
        status: "accepted",
        outcome: "ignored",
        reason: "the reload has no finished status",
      });
    case "unknown-tenant":
      return refused(404, "No Qlik Cloud tenant of this name takes webhooks");
    case "bad-signature":
      return refused(401, "Missing or wrong Qlik-Signature");
    case "not-an-event":
      return refused(400, `Not an event: ${outcome.problem}`);
    case "not-stored":
      return refused(503, "The event could not be stored; send it again", { "retry-after": "30" });
  }
}

/** A Content-Length header's value when it is a plain decimal number. */
function declaredLength(header: string | undefined): number | undefined {
  const text = header?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** The tenant named by the path, or undefined when the path is not the route's. */
export function webhookTenantOf(path: string): string | undefined {
  if (!path.startsWith(QLIK_CLOUD_WEBHOOK_PREFIX)) return undefined;
  const name = path.slice(QLIK_CLOUD_WEBHOOK_PREFIX.length);
  return name === "" || name.includes("/") ? undefined : name;
}

export function createWebhookHandler(receiver: WebhookReceiver, logger: Logger): WebhookHandler {
  return async function qlikCloudWebhook(request) {
    try {
      const tenant = webhookTenantOf(request.path);
      if (tenant === undefined || !receiver.knows(tenant))
        return outcomeAnswer(await receiver.receive(tenant ?? "", new Uint8Array(), undefined));
      if (request.method !== "POST") return refused(405, "Only POST is taken here", { allow: "POST" });
      const declared = declaredLength(request.header("content-length"));
      if (declared !== undefined && declared > MAX_WEBHOOK_BODY_BYTES)
        return refused(413, "Body larger than 1 MiB");
      const body = await request.readBytes(MAX_WEBHOOK_BODY_BYTES);
      if (body === undefined) return refused(413, "Body larger than 1 MiB");
      return outcomeAnswer(await receiver.receive(tenant, body, request.header(SIGNATURE_HEADER)));
    } catch (error) {
      if (error instanceof RequestAbortedError) return refused(400, "Request body incomplete");
      logger.error("A Qlik Cloud webhook delivery could not be answered", { error: describeError(error) });
      return refused(500, "Internal error");
    }
  };
}
