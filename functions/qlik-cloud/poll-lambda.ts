/**
 * The scheduled polling of Qlik Cloud tenants as a Lambda handler (an EventBridge schedule,
 * infra/qlik-cloud.ts): each invocation runs, for every tenant whose `poll` is on, one round of
 * each polling input from the cursors in DynamoDB (core/qlik-cloud/tenant-polling.ts, the rounds
 * the local timers run), after handing on the tenant's runs left pending by earlier invocations.
 * Tenants are polled side by side, each with its own client, so one slow tenant holds up no other.
 *
 * A tenant is polled by one invocation at a time: each claims the tenant's occurrence in the
 * schedule table's lease (core/adapters/aws/dynamo-schedule-lease.ts), the occurrence being the
 * schedule's slot nearest to the scheduled event's `time` (now, for an event without one). Of two
 * invocations for one slot (EventBridge delivers an event at least once) one polls and the other
 * passes over; invocations of consecutive slots never overlap, because the function's time limit
 * is shorter than a slot. The schedule is the stack's
 * (`STEWARD_QLIK_CLOUD_POLL_MINUTES`); `poll.interval` is the local process's.
 *
 * The same invocation reads the licences of a tenant whose `licences.enable` is on when they are
 * due on `licenseMonitor.frequency` (core/qlik-cloud/licences-when-due.ts: the last reading's time
 * kept beside the tenant's cursors), beside its polling rather than after it, so that a slow
 * licence call delays none of the tenant's runs. A tenant whose polling is off is still claimed
 * for its licences.
 */

import type { QlikCloudTenantConfig } from "../../core/config/index.ts";
import type { Clock, CloudCursorStore, ScheduleLease } from "../../core/ports.ts";
import type { CloudTenantOutputs } from "../../core/qlik-cloud/index.ts";
import {
  createTenantPollRound,
  firstLookBackSince,
  POLLED_INPUTS,
  readLicencesWhenDue,
} from "../../core/qlik-cloud/index.ts";
import { describeError } from "../../core/shared/describe-error.ts";
import type { CloudQlikInput } from "./cloud-qlik-input.ts";

/**
 * What an invocation did per tenant: `polled` or `passed` (another invocation holds it). A tenant
 * that could not be polled at all (its lease or cursors unreadable) fails the invocation once the
 * others are done, so that the function's error alarm tells; a round that failed against the
 * tenant's API does not, its cursor lag tells instead.
 */
export type PollResult = Record<string, "polled" | "passed" | "failed">;

/** What the handler reads of EventBridge's scheduled event: when it was due. */
export interface ScheduledEvent {
  readonly time?: string;
}

export type PollLambda = (event?: ScheduledEvent) => Promise<PollResult>;

export interface PollLambdaDeps {
  readonly input: CloudQlikInput;
  readonly cursors: CloudCursorStore;
  readonly lease: ScheduleLease;
  readonly clock: Clock;
  /** The schedule's period. */
  readonly slotMs: number;
}

/** The lease's id of a tenant's polling, beside the schedules' ids (UUIDs) in the schedule table. */
export const pollLeaseId = (tenant: string) => `qlik-cloud-poll:${tenant}`;

export function createPollLambda(deps: PollLambdaDeps): PollLambda {
  const { input, cursors, lease, clock } = deps;
  const { intake, monitor, logger } = input;

  async function pollTenant(tenant: QlikCloudTenantConfig, slot: number): Promise<"polled" | "passed"> {
    if (!(await lease.claim(pollLeaseId(tenant.name), slot))) {
      logger.info("Another invocation polls this Qlik Cloud tenant in this slot; passed over", {
        tenant: tenant.name,
        slot: new Date(slot).toISOString(),
      });
      return "passed";
    }
    await Promise.all([tenant.poll.enable ? pollRounds(tenant) : undefined, licencesWhenDue(tenant.name)]);
    return "polled";
  }

  async function pollRounds(tenant: QlikCloudTenantConfig): Promise<void> {
    // A tenant with no cursor yet is new: its first look-back is recorded, not alerted.
    const newSinceMs = await firstLookBackSince(tenant.name, cursors, monitor, clock);
    const resumed = await intake.resume(tenant.name);
    if (resumed > 0)
      logger.info("Handing on Qlik Cloud runs left pending", { tenant: tenant.name, runs: resumed });
    const round = createTenantPollRound({
      tenant: tenant.name,
      client: (input.clients.get(tenant.name) as CloudTenantOutputs).client,
      initialHours: tenant.poll.initialHours,
      cursors,
      intake,
      monitor,
      clock,
      logger,
      signal: new AbortController().signal,
      newSinceMs,
    });
    for (const each of POLLED_INPUTS) await round(each);
  }

  async function licencesWhenDue(tenant: string): Promise<void> {
    const licences = input.licences;
    if (licences === undefined || !licences.reading.names.includes(tenant)) return;
    await readLicencesWhenDue({
      licences: licences.reading,
      tenant,
      cursors,
      recurrence: licences.recurrence,
      clock,
      signal: new AbortController().signal,
    });
  }

  return async function qlikCloudPollLambda(event) {
    const due = Date.parse(event?.time ?? "");
    const slot = Math.round((Number.isFinite(due) ? due : clock.now()) / deps.slotMs) * deps.slotMs;
    const licensed = input.licences?.reading.names ?? [];
    const polled = input.tenants.filter((tenant) => tenant.poll.enable || licensed.includes(tenant.name));
    const outcomes = await Promise.all(
      polled.map(async (tenant) => {
        try {
          return [tenant.name, await pollTenant(tenant, slot)] as const;
        } catch (error) {
          monitor.error(tenant.name, `polling failed: ${describeError(error)}`);
          logger.error("Polling a Qlik Cloud tenant failed; the next invocation tries again", {
            tenant: tenant.name,
            error: describeError(error),
          });
          return [tenant.name, "failed"] as const;
        }
      }),
    );
    await input.settle();
    const failed = outcomes.filter(([, outcome]) => outcome === "failed").map(([name]) => name);
    // Thrown, so that the function's error alarm tells; the runs taken are handed on all the same.
    if (failed.length > 0) throw new Error(`Polling failed for Qlik Cloud tenants ${failed.join(", ")}`);
    return Object.fromEntries(outcomes);
  };
}
