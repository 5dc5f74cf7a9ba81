/**
 * Where every input hands the runs it finds: each run is taken into the inbox (durably, and once:
 * cloud-run-inbox.ts), and a new one is then handed to the one CloudRunHandler in the background,
 * so that a webhook is answered as soon as its run is on disk and never waits for what the handler
 * does. Each tenant hands on its own runs, at most HANDING_AT_ONCE at a time: a handler slow for
 * one tenant (its API lookups) holds up no other. A run handed on is counted `processed`; one the
 * handler refused is counted `failed`, logged, and stays pending in the inbox, to be handed on
 * again at the next start (`resume`), as is whatever a stop left pending. A runtime that may not
 * work after it answered (a cloud function, frozen between invocations) waits for `settled`
 * before it answers.
 *
 * An intake given a queue instead of a handler (the cloud's webhook function) hands nothing on
 * itself: a new run's key is sent to the queue once the run is durable, and `handOnStored` of the
 * intake on the other side (the hand-on function) takes the run from the inbox and hands it on. A
 * run whose key could not be sent is still taken, since it is durable: the failure is logged
 * (WARN) and kept as the tenant's last error, and the run stays pending in the inbox for the
 * next `resume`.
 */

import { type ConcurrencyLimit, createConcurrencyLimit } from "../agent-destinations/index.ts";
import type { CloudRunHandler, CloudRunQueue, Logger } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { CloudInputMonitor } from "./cloud-input-monitor.ts";
import type { CloudReloadRun } from "./cloud-reload-run.ts";
import type { CloudRunInbox, TakeOutcome } from "./cloud-run-inbox.ts";

export const HANDING_AT_ONCE = 4;

export interface CloudRunIntake {
  /**
   * Takes a run: resolves once it is durable ("new") or known ("duplicate", "seen"); rejects when
   * it could not be stored (nothing was acknowledged then, and nothing was counted but `failed`).
   */
  take(run: CloudReloadRun): Promise<TakeOutcome>;
  /** Hands on the tenant's runs that an earlier start took but did not hand on; answers how many. */
  resume(tenant: string): Promise<number>;
  /**
   * Hands on the run `reloadId` of `tenant` that an input took, if it is still pending in the
   * inbox, and resolves once it was: "handed", "already" (handed on before, or unknown), "failed"
   * (the handler refused it; it stays pending). Rejects when the inbox could not be read.
   */
  handOnStored(tenant: string, reloadId: string): Promise<HandOnOutcome>;
  /** Resolves once no run is being handed on, including those taken while it waits; takes on. */
  settled(): Promise<void>;
  /** Takes no more runs and waits for those being handed on. */
  stop(): Promise<void>;
}

export type HandOnOutcome = "handed" | "already" | "failed";

export type CloudRunIntakeDeps = {
  readonly inbox: CloudRunInbox;
  readonly monitor: CloudInputMonitor;
  readonly logger: Logger;
} & (
  | { readonly handler: CloudRunHandler }
  /** Where new runs' keys go, for another runtime to hand them on. */
  | { readonly queue: CloudRunQueue }
);

export function createCloudRunIntake(deps: CloudRunIntakeDeps): CloudRunIntake {
  const { inbox, monitor, logger } = deps;
  const handler = "handler" in deps ? deps.handler : undefined;
  const queue = "queue" in deps ? deps.queue : undefined;
  const limits = new Map<string, ConcurrencyLimit>();
  const handing = new Set<Promise<unknown>>();
  let stopping = false;

  const limitOf = (tenant: string) => {
    let limit = limits.get(tenant);
    if (limit === undefined) {
      limit = createConcurrencyLimit(HANDING_AT_ONCE);
      limits.set(tenant, limit);
    }
    return limit;
  };

  async function handOn(run: CloudReloadRun): Promise<boolean> {
    // Stopping: left pending in the inbox, handed on at the next start.
    if (stopping) return false;
    try {
      if (handler === undefined) throw new Error("this intake sends runs to a queue, it hands none on");
      await handler(run);
    } catch (error) {
      monitor.event(run.tenant, run.source, "failed");
      monitor.error(run.tenant, `handing on reload ${run.reloadId} failed: ${describeError(error)}`);
      logger.error(
        "A Qlik Cloud reload run could not be handed on; it is handed on again at the next start",
        {
          tenant: run.tenant,
          reloadId: run.reloadId,
          error: describeError(error),
        },
      );
      return false;
    }
    monitor.event(run.tenant, run.source, "processed");
    monitor.handedOn(run);
    try {
      await inbox.handed(run);
    } catch (error) {
      // Handed on, but not marked so: the next start hands it on again (at least once, never lost).
      logger.warn("A Qlik Cloud reload run was handed on but could not be marked so", {
        tenant: run.tenant,
        reloadId: run.reloadId,
        error: describeError(error),
      });
    }
    return true;
  }

  function schedule(run: CloudReloadRun): Promise<boolean> {
    const done = limitOf(run.tenant)
      .run(() => handOn(run))
      .finally(() => handing.delete(done));
    handing.add(done);
    return done;
  }

  async function send(to: CloudRunQueue, run: CloudReloadRun): Promise<void> {
    try {
      await to.send(run);
    } catch (error) {
      monitor.error(run.tenant, `queueing reload ${run.reloadId} failed: ${describeError(error)}`);
      logger.warn(
        "A Qlik Cloud reload run was stored but could not be queued to be handed on; it stays pending and the next poll hands it on",
        { tenant: run.tenant, reloadId: run.reloadId, error: describeError(error) },
      );
    }
  }

  return {
    async take(run) {
      if (stopping) throw new Error("Steward is stopping: no more Qlik Cloud runs are taken");
      let outcome: TakeOutcome;
      try {
        outcome = await inbox.take(run);
      } catch (error) {
        monitor.event(run.tenant, run.source, "failed");
        monitor.error(run.tenant, `storing reload ${run.reloadId} failed: ${describeError(error)}`);
        throw error;
      }
      if (outcome === "duplicate") monitor.event(run.tenant, run.source, "duplicate");
      if (outcome === "new" && queue !== undefined) await send(queue, run);
      else if (outcome === "new") schedule(run);
      return outcome;
    },
    async handOnStored(tenant, reloadId) {
      const run = await inbox.claim(tenant, reloadId);
      if (run === undefined) return "already";
      return (await schedule(run)) ? "handed" : "failed";
    },
    async resume(tenant) {
      const runs = await inbox.pending(tenant);
      for (const run of runs) schedule(run);
      return runs.length;
    },
    async settled() {
      while (handing.size > 0) await Promise.all([...handing]);
    },
    async stop() {
      stopping = true;
      await Promise.all([...handing]);
    },
  };
}
