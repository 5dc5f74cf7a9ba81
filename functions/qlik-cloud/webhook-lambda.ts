/**
 * The Qlik Cloud webhook as a Lambda handler behind API Gateway (HTTP API, payload 2.0):
 * `POST /api/v1/qlik-cloud/webhooks/{tenant}` turned into the runtime-neutral request of
 * webhook-handler.ts and its answer into the gateway's result. The body's bytes are the ones Qlik
 * signed: API Gateway hands a body it does not take for text as base64 (`isBase64Encoded`), which
 * is decoded before the signature is checked; a text body is its UTF-8 bytes. The whole body is
 * there at once, so the 1 MiB limit is checked on its length (API Gateway itself takes at most
 * 10 MB). A run is answered 202 once it is stored in the table and its key was sent to the runs'
 * queue (or could not be: the run is durable, and the poll hands it on); it is handed on by the
 * hand-on function, never here, so the answer waits for no tenant lookup and no alert.
 */
import type { Clock } from "../../core/ports.ts";
import { createWebhookReceiver } from "../../core/qlik-cloud/index.ts";
import type { CloudWebhookInput } from "./cloud-qlik-input.ts";
import { webhookTenants } from "./tenant-wiring.ts";
import { createWebhookHandler, type WebhookHttpRequest } from "./webhook-handler.ts";

/** What the handler reads of an API Gateway v2 event. */
export interface HttpApiEvent {
  readonly rawPath: string;
  readonly requestContext: { readonly http: { readonly method: string } };
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body?: string | null;
  readonly isBase64Encoded?: boolean;
}

export interface HttpApiResult {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export type WebhookLambda = (event: HttpApiEvent) => Promise<HttpApiResult>;

/** The body's bytes as the client sent them. */
export function eventBodyBytes(event: HttpApiEvent): Uint8Array {
  const body = event.body ?? "";
  return event.isBase64Encoded === true ? Buffer.from(body, "base64") : Buffer.from(body, "utf8");
}

function requestOf(event: HttpApiEvent): WebhookHttpRequest {
  const headers = new Map(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const),
  );
  return {
    method: event.requestContext.http.method,
    path: event.rawPath,
    header: (name) => headers.get(name.toLowerCase()),
    async readBytes(maxBytes) {
      const bytes = eventBodyBytes(event);
      return bytes.byteLength > maxBytes ? undefined : bytes;
    },
  };
}

export function createWebhookLambda(input: CloudWebhookInput, clock: Clock): WebhookLambda {
  const { intake, monitor, logger } = input;
  const handle = createWebhookHandler(
    createWebhookReceiver({ tenants: webhookTenants(input.tenants), intake, monitor, logger, clock }),
    logger,
  );
  return async function qlikCloudWebhookLambda(event) {
    const answer = await handle(requestOf(event));
    await input.settle();
    return { statusCode: answer.status, headers: answer.headers, body: answer.body };
  };
}
