/**
 * What the running process reports at `GET /status` (docs/self-monitoring.md, "Config UI and status
 * page"): each part registers a named snapshot function under one of a few sections when it starts,
 * and the board calls them only when the document is asked for (nothing is pushed from a hot path).
 * Last write errors per destination are noted as they happen. No I/O: the listener that serves the
 * document lives in local/config-ui/.
 */
import type { Clock } from "../ports.ts";

export const STATUS_SECTIONS = [
  "listeners",
  "pollers",
  "udpQueues",
  "audit",
  "destinations",
  "stores",
  "taskEvents",
  "alertDestinations",
  "licenses",
  "qlikCloud",
  // Kept script logs other than the site's (`scriptLogFiles.qlikCloud`): `qlikCloud` holds tenants only.
  "scriptLogFiles",
  "serviceMonitor",
] as const;
export type StatusSection = (typeof STATUS_SECTIONS)[number];

/** The last failed write of a destination. */
export interface DestinationError {
  at: string;
  message: string;
}

/** The document: every section of STATUS_SECTIONS, described below where it needs a word. */
export interface StatusDocument extends Record<StatusSection, Record<string, unknown>> {
  version: string;
  startedAt: string;
  now: string;
  uptimeSeconds: number;
  /** Events taken in since start: UDP datagrams received plus audit events received. */
  eventsTotal: number;
  listeners: Record<string, unknown>;
  pollers: Record<string, unknown>;
  udpQueues: Record<string, unknown>;
  /** Event counts by source since start (`user`, `log`, …), when UDP events run. */
  eventCounts: Record<string, number>;
  audit: Record<string, unknown>;
  destinations: Record<string, unknown>;
  /** The REST API's local store files (`keyValues`, `schedules`): available or why not. */
  stores: Record<string, unknown>;
  /** Reload-task events, when they are on: `last`, the latest events with what each destination did. */
  taskEvents: Record<string, unknown>;
  /** Per alert destination: its counts by outcome and its last error. */
  alertDestinations: Record<string, unknown>;
  /** The licence monitor's last run: access licence use, the server licence's expiry, the version. */
  licenses: Record<string, unknown>;
  /** Per Qlik Cloud tenant: its inputs, last run, cursors, token expiry and last error. */
  qlikCloud: Record<string, unknown>;
  /** Script logs kept on disk other than the site's (`qlikCloud`): written, failed, kept. */
  scriptLogFiles: Record<string, unknown>;
  /** The Windows service monitor (`monitor`): each watched service's state and last reading. */
  serviceMonitor: Record<string, unknown>;
  lastErrors: Record<string, DestinationError>;
  errors: unknown;
}

export interface StatusBoard {
  /** Registers (or replaces) `name` in `section`; `snapshot` is called per document. */
  set(section: StatusSection, name: string, snapshot: () => unknown): void;
  /** Adds a source of events taken in (a cumulative count). */
  countEvents(total: () => number): void;
  /** Sets where the event counts by source come from. */
  setEventCounts(counts: () => Record<string, number>): void;
  /** Sets where the error tracker's counts come from. */
  setErrors(counts: () => unknown): void;
  /** Notes a failed write to `destination` (the latest one is kept). */
  noteError(destination: string, error: unknown): void;
  document(): StatusDocument;
}

export interface StatusBoardOptions {
  version: string;
  clock: Clock;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A snapshot that throws is shown as its error: the document is always answered. */
function safely<T>(read: () => T): T | { error: string } {
  try {
    return read();
  } catch (error) {
    return { error: describe(error) };
  }
}

export function createStatusBoard(options: StatusBoardOptions): StatusBoard {
  const { clock, version } = options;
  const startedAtMs = clock.now();
  const sections = new Map<StatusSection, Map<string, () => unknown>>(
    STATUS_SECTIONS.map((section) => [section, new Map()]),
  );
  const eventSources: Array<() => number> = [];
  const lastErrors = new Map<string, DestinationError>();
  let eventCounts: () => Record<string, number> = () => ({});
  let errors: () => unknown = () => null;

  const read = (section: StatusSection) =>
    Object.fromEntries(
      [...(sections.get(section) ?? [])].map(([name, snapshot]) => [name, safely(snapshot)]),
    );

  return {
    set: (section, name, snapshot) => void sections.get(section)?.set(name, snapshot),
    countEvents: (total) => void eventSources.push(total),
    setEventCounts: (counts) => {
      eventCounts = counts;
    },
    setErrors: (counts) => {
      errors = counts;
    },
    noteError: (destination, error) =>
      void lastErrors.set(destination, { at: new Date(clock.now()).toISOString(), message: describe(error) }),
    document() {
      const now = clock.now();
      return {
        version,
        startedAt: new Date(startedAtMs).toISOString(),
        now: new Date(now).toISOString(),
        uptimeSeconds: Math.max(0, Math.round((now - startedAtMs) / 100) / 10),
        eventsTotal: eventSources.reduce((sum, total) => {
          const value = safely(total);
          return typeof value === "number" ? sum + value : sum;
        }, 0),
        eventCounts: safely(eventCounts) as Record<string, number>,
        // Every section, from the one list: a section a part registers is always in the document.
        ...(Object.fromEntries(STATUS_SECTIONS.map((section) => [section, read(section)])) as Record<
          StatusSection,
          Record<string, unknown>
        >),
        lastErrors: Object.fromEntries(lastErrors),
        errors: safely(errors),
      };
    },
  };
}
