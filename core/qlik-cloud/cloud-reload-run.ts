/**
 * A reload run of a Qlik Cloud tenant: what every input (a signed webhook, the reloads API, the
 * audits API) makes of one finished reload, normalised to one typed value, and the one thing
 * handed on (CloudRunHandler, core/ports.ts). Its identity is the tenant and the reload's id
 * (`data.id` of `com.qlik.v1.reload.finished`, the id of `/api/v1/reloads`): the same run found
 * by webhook and by polling is one run.
 *
 * The kind is the alert kind the client-managed reloads use: FAILED and EXCEEDED_LIMIT (a reload
 * stopped by the platform's limits has failed as surely) are failures, CANCELED is an abort,
 * SUCCEEDED a success. Active statuses (QUEUED, RELOADING, CANCELING) are no finished run.
 */

/** The event type Steward takes a finished reload from: one per reload, whatever its retries. */
export const RELOAD_FINISHED_EVENT = "com.qlik.v1.reload.finished";

/** The event types Steward handles, as registered on a tenant's webhook. */
export const HANDLED_EVENT_TYPES = [RELOAD_FINISHED_EVENT] as const;

export type CloudRunKind = "reloadTaskFailure" | "reloadTaskAborted" | "reloadTaskSuccess";

/** How a run came in: pushed by the tenant, or read from its APIs. */
export type CloudRunSource = "webhook" | "poll";

/** Which of the tenant's inputs found the run. */
export type CloudRunInput = "webhook" | "reloads" | "audits";

/** The end statuses of a reload and the kind of run each is. */
export const FINISHED_STATUSES: Readonly<Record<string, CloudRunKind>> = {
  SUCCEEDED: "reloadTaskSuccess",
  FAILED: "reloadTaskFailure",
  EXCEEDED_LIMIT: "reloadTaskFailure",
  CANCELED: "reloadTaskAborted",
};

export interface CloudReloadRun {
  /** The configured tenant's name (`qlikCloud.tenants[].name`): its `tenant` tag. */
  readonly tenant: string;
  /** The reload's id: the run's identity within the tenant. */
  readonly reloadId: string;
  readonly appId: string;
  readonly kind: CloudRunKind;
  /** Qlik's end status: SUCCEEDED, FAILED, CANCELED or EXCEEDED_LIMIT. */
  readonly status: string;
  /** When the run finished (ISO 8601): its end time, else when Qlik reported it. */
  readonly finishedAt: string;
  readonly source: CloudRunSource;
  readonly input: CloudRunInput;
  /** When Steward took the run in (ISO 8601). */
  readonly receivedAt: string;
  /** Qlik's id of the tenant (32 characters), when the input named it. */
  readonly tenantId?: string;
  /** What started the reload: hub, chronos (a schedule), external, automations, data-refresh, choreographer. */
  readonly trigger?: string;
  /** The app's scheduled reload task, when a schedule started it. */
  readonly taskId?: string;
  /** The user who started the reload. */
  readonly userId?: string;
  readonly ownerId?: string;
  readonly spaceId?: string;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly partial?: boolean;
  readonly creationTime?: string;
  readonly startTime?: string;
  readonly endTime?: string;
  readonly durationSeconds?: number;
  /** The event's id (webhook and audits), absent for a run read from the reloads API. */
  readonly eventId?: string;
  /**
   * Found by the first look-back of a tenant Steward had never polled (no cursor yet), and
   * finished before Steward began polling it: recorded (log line, point), never alerted
   * (tenant-polling.ts says why).
   */
  readonly firstLookBack?: true;
}
