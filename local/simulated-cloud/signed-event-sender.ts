/**
 * Sends signed events as a Qlik Cloud tenant does: `POST` of the JSON body, `Content-Type:
 * application/json`, `User-Agent: Qlik Webhook`, `Qlik-Signature` (the hex HMAC-SHA256 of exactly
 * the bytes sent, with the webhook's secret; left out when there is none) and the webhook's own
 * headers. Like Qlik, it does not follow a redirect: a 3xx is a failed delivery, "redirects are
 * forbidden", and so is anything but a 2xx, or no answer within the time limit. `deliverReload`
 * sends a simulated reload's event to every enabled webhook of the tenant that takes the type,
 * keeping a delivery record of each (Qlik keeps them a week).
 */
import { signWebhookBody } from "../../core/qlik-cloud/index.ts";
import { type EnvelopeForm, RELOAD_FINISHED, reloadEventBody } from "./reload-event-bodies.ts";
import { type Delivery, hexId, type SimulatedReload, type TenantState } from "./tenant-state.ts";

export interface SignedSend {
  readonly url: string;
  /** The exact bytes sent (and signed). */
  readonly body: string;
  /** Empty: sent unsigned, as for a webhook without a secret. */
  readonly secret: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent instead of the real signature (a wrong one, for tests). */
  readonly signature?: string;
  readonly timeoutMs?: number;
}

export interface SendOutcome {
  readonly ok: boolean;
  readonly status?: number;
  readonly statusMessage?: string;
  /** How long the answer took. */
  readonly ms: number;
}

export async function sendSignedEvent(send: SignedSend): Promise<SendOutcome> {
  const started = performance.now();
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Qlik Webhook",
    ...send.headers,
  };
  const signature =
    send.signature ?? (send.secret === "" ? undefined : signWebhookBody(send.body, send.secret));
  if (signature !== undefined) headers["qlik-signature"] = signature;
  try {
    const response = await fetch(send.url, {
      method: "POST",
      headers,
      body: send.body,
      redirect: "manual",
      signal: AbortSignal.timeout(send.timeoutMs ?? 10_000),
    });
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (response.status >= 300 && response.status < 400) {
      return {
        ok: false,
        status: response.status,
        statusMessage: `redirects are forbidden ${response.status} (${response.status} ${response.statusText})`,
        ms,
      };
    }
    const ok = response.status >= 200 && response.status < 300;
    return ok
      ? { ok, status: response.status, ms }
      : { ok, status: response.status, statusMessage: `answered ${response.status}`, ms };
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    const message =
      typeof cause === "string" ? cause : error instanceof Error ? error.message : String(error);
    return { ok: false, statusMessage: message, ms: performance.now() - started };
  }
}

export interface DeliverOptions {
  readonly form?: EnvelopeForm;
  /** Sent this many times, as an at-least-once delivery may be (default 1). */
  readonly times?: number;
}

/** Delivers the reload's event to the tenant's webhooks; answers their delivery records. */
export async function deliverReload(
  state: TenantState,
  reload: SimulatedReload,
  options: DeliverOptions = {},
): Promise<Delivery[]> {
  const body = JSON.stringify(reloadEventBody(state.fixture, reload, options.form ?? "cloudevents"));
  const targets = [...state.webhooks.values()].filter(
    (webhook) => webhook.enabled && webhook.eventTypes.includes(RELOAD_FINISHED),
  );
  const out: Delivery[] = [];
  for (let i = 0; i < (options.times ?? 1); i += 1) {
    for (const webhook of targets) {
      const outcome = await sendSignedEvent({
        url: webhook.url,
        body,
        secret: webhook.secret,
        headers: webhook.headers,
      });
      const delivery: Delivery = {
        id: hexId(),
        webhookId: webhook.id,
        eventType: RELOAD_FINISHED,
        status: outcome.ok ? "success" : "fail",
        ...(outcome.statusMessage === undefined ? {} : { statusMessage: outcome.statusMessage }),
        triggeredAt: new Date(state.now()).toISOString(),
        url: webhook.url,
        body,
        ...(outcome.status === undefined ? {} : { responseStatus: outcome.status }),
      };
      state.deliveries.push(delivery);
      out.push(delivery);
    }
  }
  return out;
}
