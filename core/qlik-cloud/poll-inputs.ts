/**
 * The two ways a tenant's finished reloads are read from its APIs, page by page, as runs:
 * - `reloads`: `GET /api/v1/reloads` (every app's, which the tenant administrator's credential
 *   may list), newest end first, until a reload ended before the window; reloads still running
 *   are passed over (the next round finds them ended). At most MAX_PAGES pages a round: a first
 *   start that reaches far back reads the newest, and the audits input covers the rest;
 * - `audits`: `GET /api/v1/audits` for `com.qlik.v1.reload.finished` in the window, oldest first,
 *   the same event a webhook carries (audit items keep the legacy names; one reader reads both).
 *   At most MAX_PAGES pages a round too: it then says how far it read (`cutShort`), and the next
 *   round goes on from there.
 * Pages are followed by the `next` cursor in `links.next.href`, asked of the tenant's own address
 * (an href may name Qlik's internal host, and the token must not go anywhere else). An item that
 * is no run is reported to `refused` and passed over, never stopping the round.
 */
import type { TenantClient } from "../ports.ts";
import { readCloudEvent } from "./cloud-event-envelope.ts";
import type { CloudPollInput } from "./cloud-input-monitor.ts";
import { type CloudReloadRun, RELOAD_FINISHED_EVENT } from "./cloud-reload-run.ts";
import { readReloadRun } from "./reload-run-reading.ts";

export const PAGE_SIZE = 100;
export const MAX_PAGES = 50;

export interface PollWindow {
  readonly tenant: string;
  readonly fromMs: number;
  readonly toMs: number;
  /** Epoch ms the runs are taken in. */
  readonly nowMs: number;
  readonly signal: AbortSignal;
  /** An item that is no run: why (logged and counted by the caller). */
  readonly refused: (problem: string) => void;
  /** The input stopped before the window's end: it read everything up to `readUpToMs`. */
  readonly cutShort: (readUpToMs: number, why: string) => void;
}

/** One input: its pages of runs within the window, oldest page or newest first as it reads. */
export type PollInputReader = (client: TenantClient, window: PollWindow) => AsyncGenerator<CloudReloadRun[]>;

interface Page {
  readonly data: unknown[];
  readonly next: string | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The page's items and the `next` cursor of its `links.next.href`. */
function pageOf(body: unknown): Page {
  if (!isRecord(body) || !Array.isArray(body.data)) return { data: [], next: undefined };
  const links = isRecord(body.links) ? body.links : {};
  const href = isRecord(links.next) && typeof links.next.href === "string" ? links.next.href : undefined;
  let next: string | undefined;
  if (href !== undefined && URL.canParse(href)) next = new URL(href).searchParams.get("next") ?? undefined;
  return { data: body.data, next };
}

async function* readReloads(client: TenantClient, window: PollWindow): AsyncGenerator<CloudReloadRun[]> {
  let next: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const page = pageOf(
      await client.json({
        path: "/api/v1/reloads",
        query: { limit: PAGE_SIZE, sort: "-endTime", next },
        signal: window.signal,
      }),
    );
    const runs: CloudReloadRun[] = [];
    let reachedStart = false;
    for (const item of page.data) {
      const endMs =
        isRecord(item) && typeof item.endTime === "string" ? Date.parse(item.endTime) : Number.NaN;
      if (Number.isFinite(endMs) && endMs < window.fromMs) {
        reachedStart = true;
        break;
      }
      const reading = readReloadRun(item, {
        tenant: window.tenant,
        source: "poll",
        input: "reloads",
        receivedAtMs: window.nowMs,
      });
      if (reading.ok) runs.push(reading.run);
      else if (reading.unfinished !== true) window.refused(`reloads: ${reading.problem}`);
    }
    yield runs;
    if (reachedStart || page.next === undefined) return;
    next = page.next;
  }
  window.cutShort(
    window.toMs,
    `more than ${MAX_PAGES * PAGE_SIZE} reloads; older ones are left to the audits input`,
  );
}

async function* readAudits(client: TenantClient, window: PollWindow): AsyncGenerator<CloudReloadRun[]> {
  const interval = `${new Date(window.fromMs).toISOString()}/${new Date(window.toMs).toISOString()}`;
  let next: string | undefined;
  let lastMs = window.fromMs;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const page = pageOf(
      await client.json({
        path: "/api/v1/audits",
        query: {
          eventType: RELOAD_FINISHED_EVENT,
          eventTime: interval,
          sort: "+eventTime",
          limit: PAGE_SIZE,
          next,
        },
        signal: window.signal,
      }),
    );
    const runs: CloudReloadRun[] = [];
    for (const item of page.data) {
      const event = readCloudEvent(item);
      if (!event.ok || event.envelope.type !== RELOAD_FINISHED_EVENT) continue;
      const { envelope } = event;
      const atMs = envelope.time === undefined ? Number.NaN : Date.parse(envelope.time);
      if (Number.isFinite(atMs)) lastMs = Math.max(lastMs, atMs);
      const reading = readReloadRun(envelope.data, {
        tenant: window.tenant,
        source: "poll",
        input: "audits",
        receivedAtMs: window.nowMs,
        eventId: envelope.id,
        eventTime: envelope.time,
        tenantId: envelope.tenantId,
        userId: envelope.userId,
        ownerId: envelope.ownerId,
        spaceId: envelope.spaceId,
        topLevelResourceId: envelope.topLevelResourceId,
      });
      if (reading.ok) runs.push(reading.run);
      else if (reading.unfinished !== true) window.refused(`audits: ${reading.problem}`);
    }
    yield runs;
    if (page.next === undefined) return;
    next = page.next;
  }
  window.cutShort(
    lastMs,
    `more than ${MAX_PAGES * PAGE_SIZE} events; the next round goes on from the last one read`,
  );
}

export const POLL_INPUTS: Readonly<Record<CloudPollInput, PollInputReader>> = {
  reloads: readReloads,
  audits: readAudits,
};
