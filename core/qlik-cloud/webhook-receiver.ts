/**
 * A tenant's webhook delivery, from its raw bytes to what becomes of it, in this order: the
 * tenant must be one whose webhook is on (else `unknown-tenant`); the `Qlik-Signature` must be the
 * body's, checked on the bytes before anything reads them (else `bad-signature`, counted); the
 * body must be JSON in one of the three envelopes (else `not-an-event`); an event type Steward
 * does not handle is acknowledged and counted `unknown_type` (Qlik would only send it again); a
 * finished reload is read into a run and taken (durable before the answer, de-duplicated).
 * Every refusal is logged, at most once a minute per tenant and reason, with how many it stands
 * for. The edge (functions/qlik-cloud/webhook-handler.ts) turns the outcome into an answer.
 */

import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { readCloudEvent } from "./cloud-event-envelope.ts";
import type { CloudInputMonitor } from "./cloud-input-monitor.ts";
import { HANDLED_EVENT_TYPES } from "./cloud-reload-run.ts";
import type { TakeOutcome } from "./cloud-run-inbox.ts";
import type { CloudRunIntake } from "./cloud-run-intake.ts";
import { readReloadRun } from "./reload-run-reading.ts";
import { createSignatureCheck } from "./webhook-signature.ts";

export type WebhookOutcome =
  | { readonly kind: "taken"; readonly outcome: TakeOutcome }
  | { readonly kind: "unknown-tenant" }
  | { readonly kind: "bad-signature" }
  | { readonly kind: "not-an-event"; readonly problem: string }
  | { readonly kind: "unknown-type"; readonly type: string }
  | { readonly kind: "unfinished"; readonly status: string }
  | { readonly kind: "not-stored" };

export interface WebhookTenant {
  readonly name: string;
  readonly secret: string;
}

export interface WebhookReceiverDeps {
  /** The tenants whose webhook is on. */
  readonly tenants: readonly WebhookTenant[];
  readonly intake: CloudRunIntake;
  readonly monitor: CloudInputMonitor;
  readonly logger: Logger;
  readonly clock: Clock;
}

export interface WebhookReceiver {
  receive(tenant: string, body: Uint8Array, signature: string | undefined): Promise<WebhookOutcome>;
  /** Whether deliveries for `tenant` are taken: its body is read only then. */
  knows(tenant: string): boolean;
}

const HANDLED = new Set<string>(HANDLED_EVENT_TYPES);

export function createWebhookReceiver(deps: WebhookReceiverDeps): WebhookReceiver {
  const { intake, monitor, logger, clock } = deps;
  const checks = new Map(deps.tenants.map((tenant) => [tenant.name, createSignatureCheck(tenant.secret)]));
  const throttle = createLogThrottle();
  const warn = (key: string, message: string, fields: Record<string, unknown>) => {
    const count = throttle.admit(key, clock.now());
    if (count !== undefined) logger.warn(message, { ...fields, count });
  };

  async function takeEvent(tenant: string, body: Uint8Array): Promise<WebhookOutcome> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body).toString("utf8"));
    } catch {
      parsed = undefined;
    }
    const reading = readCloudEvent(parsed);
    if (!reading.ok) return notAnEvent(tenant, reading.problem);
    const { envelope } = reading;
    if (!HANDLED.has(envelope.type)) {
      monitor.event(tenant, "webhook", "unknown_type");
      warn(
        `${tenant} type ${envelope.type}`,
        "A Qlik Cloud webhook delivered an event type Steward does not handle; acknowledged and left",
        {
          tenant,
          type: envelope.type,
          handled: HANDLED_EVENT_TYPES.join(","),
        },
      );
      return { kind: "unknown-type", type: envelope.type };
    }
    const run = readReloadRun(envelope.data, {
      tenant,
      source: "webhook",
      input: "webhook",
      receivedAtMs: clock.now(),
      eventId: envelope.id,
      eventTime: envelope.time,
      tenantId: envelope.tenantId,
      userId: envelope.userId,
      ownerId: envelope.ownerId,
      spaceId: envelope.spaceId,
      topLevelResourceId: envelope.topLevelResourceId,
    });
    if (!run.ok) {
      if (run.unfinished !== true) return notAnEvent(tenant, run.problem);
      monitor.event(tenant, "webhook", "failed");
      warn(
        `${tenant} status`,
        "A Qlik Cloud reload event has a status that is no finished run; acknowledged and left",
        {
          tenant,
          status: run.status,
        },
      );
      return { kind: "unfinished", status: run.status };
    }
    try {
      return { kind: "taken", outcome: await intake.take(run.run) };
    } catch (error) {
      warn(
        `${tenant} store`,
        "A Qlik Cloud webhook's run could not be stored; answered 503 for Qlik to send it again",
        {
          tenant,
          error: describeError(error),
        },
      );
      return { kind: "not-stored" };
    }
  }

  function notAnEvent(tenant: string, problem: string): WebhookOutcome {
    monitor.event(tenant, "webhook", "failed");
    warn(
      `${tenant} malformed`,
      "A signed Qlik Cloud webhook delivery is no event Steward can read; refused 400",
      {
        tenant,
        problem,
      },
    );
    return { kind: "not-an-event", problem };
  }

  return {
    knows: (tenant) => checks.has(tenant),
    async receive(tenant, body, signature) {
      const check = checks.get(tenant);
      if (check === undefined) {
        warn(
          "unknown tenant",
          "A Qlik Cloud webhook delivery names no tenant whose webhook is on; refused 404",
          {
            tenant: tenant.slice(0, 64),
          },
        );
        return { kind: "unknown-tenant" };
      }
      if (!check(body, signature)) {
        monitor.event(tenant, "webhook", "bad_signature");
        warn(
          `${tenant} signature`,
          "A Qlik Cloud webhook delivery had a missing or wrong Qlik-Signature; refused 401",
          {
            tenant,
            signature: signature === undefined ? "missing" : "wrong",
          },
        );
        return { kind: "bad-signature" };
      }
      return takeEvent(tenant, body);
    },
  };
}
