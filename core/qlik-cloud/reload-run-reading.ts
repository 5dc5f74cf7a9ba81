/**
 * A finished reload's fields, read into a CloudReloadRun: from the `data` of a
 * `com.qlik.v1.reload.finished` event (webhook or audits API; "the payload contained in the data
 * object remains consistent across both methods") and from an item of `/api/v1/reloads`, whose
 * reload object has the same names plus `endTime`. One reader serves all three inputs.
 *
 * The values come from the network: the reload's and the app's ids must look like ids (they
 * become keys of the de-duplication store and go into log lines), times must parse, text is cut
 * to a bounded length, and anything of the wrong type reads as absent. A reload still running
 * (QUEUED, RELOADING, CANCELING) is no run yet (`unfinished`); the poll finds it again once it
 * ended.
 */
import {
  type CloudReloadRun,
  type CloudRunInput,
  type CloudRunKind,
  type CloudRunSource,
  FINISHED_STATUSES,
} from "./cloud-reload-run.ts";

/** What the input knows besides `data`: the tenant, where the run came from, the envelope's attributes. */
export interface RunContext {
  readonly tenant: string;
  readonly source: CloudRunSource;
  readonly input: CloudRunInput;
  /** Epoch ms Steward took the run in. */
  readonly receivedAtMs: number;
  readonly eventId?: string | undefined;
  /** The envelope's time: when Qlik reported the run finished. */
  readonly eventTime?: string | undefined;
  readonly tenantId?: string | undefined;
  readonly userId?: string | undefined;
  readonly ownerId?: string | undefined;
  readonly spaceId?: string | undefined;
  /** The app's id in the envelope (`toplevelresourceid`), when `data` has none. */
  readonly topLevelResourceId?: string | undefined;
}

export type RunReading =
  | { readonly ok: true; readonly run: CloudReloadRun }
  | { readonly ok: false; readonly unfinished: true; readonly status: string }
  | { readonly ok: false; readonly unfinished?: false; readonly problem: string };

/** Qlik's ids: 24 hex digits, GUIDs, 32-character tenant and user ids. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const MAX_TEXT_LENGTH = 4096;
const MAX_SHORT_LENGTH = 256;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function id(value: unknown): string | undefined {
  return typeof value === "string" && ID.test(value) ? value : undefined;
}

function short(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value.slice(0, MAX_SHORT_LENGTH) : undefined;
}

function long(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value.slice(0, MAX_TEXT_LENGTH) : undefined;
}

/** A time as ISO 8601 (Qlik's times come with and without fractions: compared as instants, never as text). */
function time(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 64) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function seconds(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The run's kind from its status, or from `succeeded` when the status is missing. */
function kindOf(data: Record<string, unknown>): { kind: CloudRunKind; status: string } | string {
  const status = typeof data.status === "string" ? data.status.toUpperCase() : undefined;
  if (status !== undefined) {
    const kind = FINISHED_STATUSES[status];
    return kind === undefined ? status : { kind, status };
  }
  if (data.succeeded === true) return { kind: "reloadTaskSuccess", status: "SUCCEEDED" };
  if (data.succeeded === false) return { kind: "reloadTaskFailure", status: "FAILED" };
  return "";
}

/** Present values only, so that an absent field is no key (exactOptionalPropertyTypes). */
function defined<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function finishedAt(run: {
  endTime?: string | undefined;
  eventTime?: string | undefined;
  startTime?: string | undefined;
  durationSeconds?: number | undefined;
  receivedAtMs: number;
}): string {
  if (run.endTime !== undefined) return run.endTime;
  if (run.eventTime !== undefined) return run.eventTime;
  if (run.startTime !== undefined && run.durationSeconds !== undefined)
    return new Date(Date.parse(run.startTime) + run.durationSeconds * 1000).toISOString();
  return new Date(run.receivedAtMs).toISOString();
}

export function readReloadRun(data: unknown, context: RunContext): RunReading {
  if (!isRecord(data)) return { ok: false, problem: "the event has no data object" };
  const reloadId = id(data.id);
  if (reloadId === undefined) return { ok: false, problem: "data.id is not a reload id" };
  const appId = id(data.appId) ?? id(context.topLevelResourceId);
  if (appId === undefined) return { ok: false, problem: "data.appId is not an app id" };
  const kind = kindOf(data);
  if (typeof kind === "string") {
    if (kind === "") return { ok: false, problem: "data has neither a status nor succeeded" };
    return { ok: false, unfinished: true, status: kind.slice(0, MAX_SHORT_LENGTH) };
  }
  const startTime = time(data.startTime);
  const endTime = time(data.endTime);
  const durationSeconds =
    seconds(data.durationSeconds) ??
    (startTime !== undefined && endTime !== undefined
      ? Math.max(0, (Date.parse(endTime) - Date.parse(startTime)) / 1000)
      : undefined);
  const eventTime = time(context.eventTime);
  const run: CloudReloadRun = {
    tenant: context.tenant,
    reloadId,
    appId,
    kind: kind.kind,
    status: kind.status,
    finishedAt: finishedAt({
      endTime,
      eventTime,
      startTime,
      durationSeconds,
      receivedAtMs: context.receivedAtMs,
    }),
    source: context.source,
    input: context.input,
    receivedAt: new Date(context.receivedAtMs).toISOString(),
    ...defined({
      tenantId: id(data.tenantId) ?? id(context.tenantId),
      trigger: short(data.type),
      taskId: id(data.taskId),
      userId: id(data.userId) ?? id(context.userId),
      ownerId: id(context.ownerId),
      spaceId: id(context.spaceId),
      errorCode: short(data.errorCode),
      errorMessage: long(data.errorMessage),
      partial: typeof data.partial === "boolean" ? data.partial : undefined,
      creationTime: time(data.creationTime),
      startTime,
      endTime,
      durationSeconds,
      eventId: short(context.eventId),
    }),
  };
  return { ok: true, run };
}
