/**
 * What `steward simulate-qlik-cloud` does every few seconds: in each simulated tenant a reload
 * ends, failed, succeeded or canceled in turn, and its signed event goes to the tenant's webhooks
 * in the CloudEvents, hybrid and legacy envelopes in turn; every fourth is delivered twice, as
 * an at-least-once delivery may be. Each reload is in the tenant's reloads and audits too, so that
 * polling finds what a delivery could not bring (Steward stopped, say). Sends run one round at a
 * time; a round still sending when the next is due is skipped.
 */
import type { Stoppable } from "../../core/ports.ts";
import { ENVELOPE_FORMS, type EnvelopeForm } from "./reload-event-bodies.ts";
import type { SimulatedTenant } from "./simulated-tenant.ts";
import type { Delivery, FinishReloadOptions } from "./tenant-state.ts";

const STATUSES: readonly FinishReloadOptions["status"][] = ["FAILED", "SUCCEEDED", "CANCELED"];

export interface SentEvent {
  readonly tenant: string;
  readonly reloadId: string;
  readonly status: string;
  readonly form: EnvelopeForm;
  readonly times: number;
  readonly deliveries: readonly Delivery[];
}

export interface EventRoundsOptions {
  readonly tenants: readonly SimulatedTenant[];
  readonly everyMs: number;
  readonly onSent: (sent: SentEvent) => void;
}

export function startEventRounds(options: EventRoundsOptions): Stoppable {
  let round = 0;
  let running: Promise<void> | undefined;
  const send = async () => {
    const turn = round;
    round += 1;
    for (const [index, tenant] of options.tenants.entries()) {
      const status = STATUSES[(turn + index) % STATUSES.length] as FinishReloadOptions["status"];
      const form = ENVELOPE_FORMS[turn % ENVELOPE_FORMS.length] as EnvelopeForm;
      const times = turn % 4 === 3 ? 2 : 1;
      const reload = tenant.finishReload({ status, appIndex: turn % tenant.fixture.apps.length });
      const deliveries = await tenant.deliver(reload, { form, times });
      options.onSent({ tenant: tenant.fixture.name, reloadId: reload.id, status, form, times, deliveries });
    }
  };
  const tick = () => {
    if (running !== undefined) return;
    running = send().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, options.everyMs);
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
