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
 */

import { type ConcurrencyLimit, createConcurrencyLimit } from "../agent-destinations/index.ts";
import type { CloudRunHandler, Logger } from "../ports.ts";
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
  /** Resolves once no run is being handed on, including those taken while it waits; takes on. */
  settled(): Promise<void>;
  /** Takes no more runs and waits for those being handed on. */
  stop(): Promise<void>;
}

export interface CloudRunIntakeDeps {
  readonly inbox: CloudRunInbox;
  readonly handler: CloudRunHandler;
  readonly monitor: CloudInputMonitor;
  readonly logger: Logger;
}

export function createCloudRunIntake(deps: CloudRunIntakeDeps): CloudRunIntake {
  const { inbox, handler, monitor, logger } = deps;
  const limits = new Map<string, ConcurrencyLimit>();
  const handing = new Set<Promise<void>>();
  let stopping = false;

  const limitOf = (tenant: string) => {
    let limit = limits.get(tenant);
    if (limit === undefined) {
      limit = createConcurrencyLimit(HANDING_AT_ONCE);
      limits.set(tenant, limit);
    }
    return limit;
  };

  async function handOn(run: CloudReloadRun): Promise<void> {
    // Stopping: left pending in the inbox, handed on at the next start.
    if (stopping) return;
    try {
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
      return;
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
  }

  function schedule(run: CloudReloadRun): void {
    const done = limitOf(run.tenant)
      .run(() => handOn(run))
      .finally(() => handing.delete(done));
    handing.add(done);
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
      if (outcome === "new") schedule(run);
      return outcome;
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
