/**
 * Where each tenant's runs are kept from the moment an input takes one until it has been handed
 * on, and remembered for a while after, on a KeyValueStore (the local runtime's file store: a
 * write is acknowledged once its record is synced to disk). One record per tenant and reload id,
 * so a run that comes by webhook and by polling, or by a webhook delivered twice, is one run:
 * - `take` writes a new run as pending and answers "new" once it is durable (the webhook's 2xx
 *   waits for that); a run already there is a "duplicate", or "seen" when the same kind of input
 *   found it before (a poll reading the time it read last round again, which is no news);
 * - `handed` keeps the record without the run's content, so that it is recognised until it
 *   expires SEEN_FOR_MS after it was last written: Qlik keeps a webhook's deliveries for a week
 *   and may resend them, so records live a day longer; older ones go, and the store stays bounded;
 * - `pending` lists the runs taken but not handed on when the process stopped, for the next start;
 * - `claim` gives one run by its key while it is still pending (where another runtime hands on what
 *   an input took: the cloud's queue consumer), and nothing once it was handed on.
 * Takes of one run are made one after the other, so two deliveries arriving together cannot both
 * be new.
 */
import type { KeyValueStore } from "../ports.ts";
import type { CloudReloadRun, CloudRunSource } from "./cloud-reload-run.ts";

export const SEEN_FOR_MS = 8 * 24 * 60 * 60 * 1000;

export type TakeOutcome = "new" | "duplicate" | "seen";

interface StoredRun {
  readonly state: "pending" | "handed";
  readonly sources: readonly CloudRunSource[];
  readonly run?: CloudReloadRun;
}

export interface CloudRunInbox {
  take(run: CloudReloadRun): Promise<TakeOutcome>;
  handed(run: CloudReloadRun): Promise<void>;
  pending(tenant: string): Promise<CloudReloadRun[]>;
  /**
   * The run `reloadId` of `tenant` when it was taken and not handed on yet; undefined when it was
   * handed on, or is unknown or expired. A store shared by several instances also starts the
   * run's pending time again, so that a sweep of `pending` leaves it to the caller for a while.
   */
  claim(tenant: string, reloadId: string): Promise<CloudReloadRun | undefined>;
}

/** The store's namespace of a tenant's runs. */
export const inboxNamespace = (tenant: string) => `qlik-cloud-runs:${tenant}`;

function parse(text: string | undefined): StoredRun | undefined {
  if (text === undefined) return undefined;
  try {
    const stored = JSON.parse(text) as StoredRun;
    return Array.isArray(stored.sources) ? stored : undefined;
  } catch {
    return undefined;
  }
}

export function createCloudRunInbox(store: KeyValueStore): CloudRunInbox {
  const inFlight = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier one for the same run has settled. */
  function inTurn<T>(run: CloudReloadRun, work: () => Promise<T>): Promise<T> {
    const key = `${run.tenant}\u0000${run.reloadId}`;
    const previous = inFlight.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(work);
    inFlight.set(key, current);
    const forget = () => {
      if (inFlight.get(key) === current) inFlight.delete(key);
    };
    current.then(forget, forget);
    return current;
  }

  const write = (run: CloudReloadRun, stored: StoredRun) =>
    store.set(inboxNamespace(run.tenant), run.reloadId, JSON.stringify(stored), SEEN_FOR_MS);

  return {
    take: (run) =>
      inTurn(run, async () => {
        const stored = parse(await store.get(inboxNamespace(run.tenant), run.reloadId));
        if (stored === undefined) {
          await write(run, { state: "pending", sources: [run.source], run });
          return "new";
        }
        if (stored.sources.includes(run.source)) return run.source === "poll" ? "seen" : "duplicate";
        await write(run, { ...stored, sources: [...stored.sources, run.source] });
        return "duplicate";
      }),
    handed: (run) =>
      inTurn(run, async () => {
        const stored = parse(await store.get(inboxNamespace(run.tenant), run.reloadId));
        await write(run, { state: "handed", sources: stored?.sources ?? [run.source] });
      }),
    async pending(tenant) {
      const namespace = inboxNamespace(tenant);
      const runs: CloudReloadRun[] = [];
      for (const key of (await store.listKeys(namespace)) ?? []) {
        const stored = parse(await store.get(namespace, key));
        if (stored?.state === "pending" && stored.run !== undefined) runs.push(stored.run);
      }
      return runs.sort((x, y) => Date.parse(x.receivedAt) - Date.parse(y.receivedAt));
    },
    async claim(tenant, reloadId) {
      const stored = parse(await store.get(inboxNamespace(tenant), reloadId));
      return stored?.state === "pending" ? stored.run : undefined;
    },
  };
}
