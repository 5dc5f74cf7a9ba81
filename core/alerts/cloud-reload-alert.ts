/**
 * The Qlik Cloud reload alert: one finished reload of a configured tenant that failed (or was
 * canceled), with what the tenant's APIs told about it. It goes to the same destinations as the
 * site's reloads, under the same switches: the cloud's failed reloads to each channel's
 * `reloadTaskFailure` block, its canceled ones to `reloadTaskAborted` (CLOUD_RELOAD_BLOCKS), so
 * one set of recipients, webhooks and rate limits serves both. Its kinds are named apart
 * (`qlikCloudReloadFailure`, ...) so that `steward_alerts_total{kind}` tells them from the site's.
 *
 * Each looked-up part (the app, its space, its owner, the user who reloaded, the script log) is
 * the data or "not available" with the reason, as the task alert's: a failed lookup never loses
 * the alert.
 */
import type { Enriched, ScriptLog } from "./task-alert.ts";

export const CLOUD_RELOAD_ALERT_KINDS = ["qlikCloudReloadFailure", "qlikCloudReloadAborted"] as const;
export type CloudReloadAlertKind = (typeof CLOUD_RELOAD_ALERT_KINDS)[number];

/** The configuration block of every channel that switches each cloud kind on. */
export const CLOUD_RELOAD_BLOCKS = {
  qlikCloudReloadFailure: "reloadTaskFailure",
  qlikCloudReloadAborted: "reloadTaskAborted",
} as const satisfies Readonly<Record<CloudReloadAlertKind, string>>;

export function isCloudReloadAlertKind(kind: string): kind is CloudReloadAlertKind {
  return (CLOUD_RELOAD_ALERT_KINDS as readonly string[]).includes(kind);
}

/** What the input read of the run (a signed event or the reloads API). */
export interface CloudRunFacts {
  readonly reloadId: string;
  readonly appId: string;
  /** Qlik's end status: FAILED, EXCEEDED_LIMIT, CANCELED. */
  readonly status: string;
  /** ISO 8601. */
  readonly finishedAt: string;
  readonly trigger?: string | undefined;
  readonly errorCode?: string | undefined;
  readonly errorMessage?: string | undefined;
  readonly startTime?: string | undefined;
  readonly endTime?: string | undefined;
  readonly durationSeconds?: number | undefined;
  readonly partial?: boolean | undefined;
}

export interface CloudTenantInfo {
  /** `qlikCloud.tenants[].name`. */
  readonly name: string;
  /** The tenant's URL, without a trailing slash. */
  readonly url: string;
}

export interface CloudUser {
  readonly id: string;
  readonly name: string;
  /** Empty when the tenant has none for the user. */
  readonly email: string;
}

export interface CloudReloadAlert {
  readonly kind: CloudReloadAlertKind;
  readonly tenant: CloudTenantInfo;
  readonly run: CloudRunFacts;
  readonly app: Enriched<{ readonly name: string }>;
  readonly space: Enriched<{ readonly id: string; readonly name: string }>;
  readonly owner: Enriched<CloudUser>;
  /** The user who started the reload. */
  readonly reloadedBy: Enriched<CloudUser>;
  readonly scriptLog: Enriched<ScriptLog>;
}
