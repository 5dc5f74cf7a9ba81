/**
 * The observability-platform destination of reload-task alerts (`incidentTool.newRelic`): for a
 * failed or aborted reload, an event and, when switched on, a log entry (task-obs-platform.ts)
 * to each account the kind selects (obs-platform-accounts.ts). Events and log entries have each
 * their own rate limit per task, so a log entry left out never holds back an event; the
 * destination's budget of alerts per minute counts one per alert. A watched Windows service's
 * change (service-obs-platform.ts) goes the same way under `serviceMonitor`, one rate limit per
 * service and target, posted with the headers of `reloadTaskFailure` (the service block has none
 * of its own). A failed or canceled Qlik Cloud reload (cloud-obs-platform.ts) goes as the
 * site's failed or aborted one, under the same block, one rate limit per tenant and app. An account
 * name that is not in `thirdPartyToolsCredentials.obsPlatform` is logged and the other accounts
 * are still served; one account that fails never stops the others. Errors name accounts, never
 * their insert API keys.
 */
import type { NewRelicIncidentConfig } from "../../config/index.ts";
import { redactText } from "../../logging/index.ts";
import { selectAccounts } from "../../observability/observability.ts";
import type {
  Logger,
  ObservabilityAccount,
  ObservabilityEventBatchClient,
  ObservabilityLogBatchClient,
} from "../../ports.ts";
import type { AlertView } from "../alert-view.ts";
import { CLOUD_RELOAD_BLOCKS, type CloudReloadAlert, isCloudReloadAlertKind } from "../cloud-reload-alert.ts";
import { isServiceStateAlertKind, type ServiceStateAlert } from "../service-state-alert.ts";
import { isTaskAlertKind, type TaskAlert } from "../task-alert.ts";
import {
  type AlertAdmission,
  type AlertDestination,
  AlertSendError,
  type AlertSendResult,
} from "../types.ts";
import { cloudObsPlatformEvent, cloudObsPlatformLog } from "./cloud-obs-platform.ts";
import { accountNamesFor } from "./obs-platform-accounts.ts";
import { serviceObsPlatformEvent, serviceObsPlatformLog, serviceTargets } from "./service-obs-platform.ts";
import {
  isObsPlatformKind,
  type ObsPlatformKind,
  obsPlatformEvent,
  obsPlatformLog,
} from "./task-obs-platform.ts";

export const OBS_PLATFORM_ALERT_DESTINATION = "obs-platform";

export interface ObsPlatformDestinationDeps {
  /** The client of a kind: each kind has its own headers (`sharedSettings.header`). */
  readonly clientFor: (kind: ObsPlatformKind) => ObservabilityEventBatchClient & ObservabilityLogBatchClient;
  /** `thirdPartyToolsCredentials.obsPlatform`. */
  readonly accounts: readonly ObservabilityAccount[];
  readonly logger: Logger;
  /** The links; `version` is sent as the `version` attribute. */
  readonly view: AlertView;
}

type Target = "event" | "log";

interface Post {
  readonly target: Target;
  readonly account: ObservabilityAccount;
}

const TARGETS: readonly Target[] = ["event", "log"];

/** What names the reload in a log line: the site's task, or the cloud's tenant and app. */
const aboutReload = (reload: { readonly alert: TaskAlert | CloudReloadAlert }) =>
  "event" in reload.alert
    ? { taskId: reload.alert.event.taskId }
    : { tenant: reload.alert.tenant.name, appId: reload.alert.run.appId };

/** The client's message (it names the account and the status, never the key), with URL secrets masked. */
const messageOf = (error: unknown) => redactText(error instanceof Error ? error.message : String(error));

/** A site's or a cloud's reload alert, with the block of the settings that switches its kind. */
type ReloadAlert =
  | { readonly alert: TaskAlert; readonly block: ObsPlatformKind }
  | { readonly alert: CloudReloadAlert; readonly block: ObsPlatformKind; readonly cloud: true };

/** The event or the log entry of a reload alert, to one account, with its kind's headers. */
function postReload(
  config: NewRelicIncidentConfig,
  deps: ObsPlatformDestinationDeps,
  reload: ReloadAlert,
  { target, account }: Post,
): Promise<void> {
  const { block } = reload;
  const settings = config[block];
  const base = {
    shared: settings.sharedSettings.attribute.static,
    own: settings.destination[target].attribute,
    version: deps.view.version,
  };
  const client = deps.clientFor(block);
  const tailLines = settings.destination.log.tailScriptLogLines;
  if ("cloud" in reload)
    return target === "event"
      ? client.postEvents([cloudObsPlatformEvent(reload.alert, base)], account)
      : client.postLogs([cloudObsPlatformLog(reload.alert, { ...base, tailLines })], account);
  if (target === "event") return client.postEvents([obsPlatformEvent(reload.alert, block, base)], account);
  return client.postLogs(
    [obsPlatformLog(reload.alert, block, deps.view.links, { ...base, tailLines })],
    account,
  );
}

export function createObsPlatformDestination(
  config: NewRelicIncidentConfig,
  deps: ObsPlatformDestinationDeps,
): AlertDestination {
  const targetsOf = (kind: ObsPlatformKind) => TARGETS.filter((t) => config[kind].destination[t].enable);

  /** The posts of the targets that passed their rate limit; unknown account names are logged. */
  function postsFor(reload: ReloadAlert, targets: readonly Target[]): Post[] {
    const { alert, block } = reload;
    const posts: Post[] = [];
    const unknown = new Set<string>();
    for (const target of targets) {
      const sendTo = config[block].destination[target].sendToAccount;
      const names = accountNamesFor(alert, sendTo, config.destinationAccount[target]);
      const picked = selectAccounts(deps.accounts, names);
      for (const name of picked.unknown) unknown.add(name);
      posts.push(...picked.accounts.map((account) => ({ target, account })));
    }
    if (unknown.size > 0)
      deps.logger.warn(
        "Reload alert accounts not defined in thirdPartyToolsCredentials.obsPlatform are skipped; the others are still sent to",
        { kind: alert.kind, ...aboutReload(reload), accounts: [...unknown].join(", ") },
      );
    return posts;
  }

  /** Every post, settled; the send fails naming each that failed, after the others were made. */
  async function postAll(posts: readonly Post[], make: (post: Post) => Promise<void>): Promise<void> {
    const results = await Promise.allSettled(posts.map(make));
    const failures = results.flatMap((result, i) =>
      result.status === "rejected" ? [{ post: posts[i] as Post, error: result.reason as unknown }] : [],
    );
    if (failures.length === 0) return;
    const named = failures.map(
      ({ post, error }) => `${post.target} to ${post.account.accountName}: ${messageOf(error)}`,
    );
    throw new AlertSendError(
      `${failures.length} of ${posts.length} posts failed (${posts.length - failures.length} sent): ${named.join("; ")}`,
      { cause: failures[0]?.error },
    );
  }

  async function sendService(alert: ServiceStateAlert, admission: AlertAdmission): Promise<AlertSendResult> {
    const settings = config.serviceMonitor;
    const targets = serviceTargets(settings, alert.kind);
    const keyOf = (target: Target) =>
      `${target}|${alert.kind}|${JSON.stringify([alert.host, alert.service])}`;
    const admitted = await admission.admit(
      targets.map(keyOf),
      settings.rateLimit,
      `this service had an alert within ${settings.rateLimit} s`,
    );
    if ("refused" in admitted) return admitted.refused;
    const open = targets.filter((target) => admitted.admitted.includes(keyOf(target)));
    const posts = open.flatMap((target) => {
      const names = [
        ...new Set([...settings.destination[target].sendToAccount, ...config.destinationAccount[target]]),
      ];
      const picked = selectAccounts(deps.accounts, names);
      if (picked.unknown.length > 0)
        deps.logger.warn(
          "Windows service alert accounts not defined in thirdPartyToolsCredentials.obsPlatform are skipped; the others are still sent to",
          { kind: alert.kind, host: alert.host, service: alert.service, accounts: picked.unknown.join(", ") },
        );
      return picked.accounts.map((account) => ({ target, account }));
    });
    if (posts.length === 0) return { outcome: "skipped", reason: "no known observability account" };
    const client = deps.clientFor("reloadTaskFailure");
    const version = deps.view.version;
    await postAll(posts, ({ target, account }) =>
      target === "event"
        ? client.postEvents([serviceObsPlatformEvent(alert, settings, version)], account)
        : client.postLogs([serviceObsPlatformLog(alert, settings, version)], account),
    );
    const suppressed = targets.length - open.length;
    return { outcome: "sent", messages: posts.length, ...(suppressed > 0 ? { suppressed } : {}) };
  }

  /**
   * A reload alert's event and log entry, each target under its own rate limit: per task for the
   * site's, per tenant and app for the cloud's (as the other channels key a cloud alert).
   */
  async function sendReload(reload: ReloadAlert, admission: AlertAdmission): Promise<AlertSendResult> {
    const { alert, block } = reload;
    const windowSeconds = config[block].sharedSettings.rateLimit;
    const targets = targetsOf(block);
    const subject =
      "cloud" in reload
        ? `cloud|${reload.alert.tenant.name}|${reload.alert.run.appId}`
        : reload.alert.event.taskId;
    // Events and log entries have each their own key, so a log entry left out never holds back an event.
    const keyOf = (target: Target) => `${target}|${alert.kind}|${subject}`;
    const admitted = await admission.admit(
      targets.map(keyOf),
      windowSeconds,
      "cloud" in reload
        ? `this app had an alert within ${windowSeconds} s`
        : `this task had an alert within ${windowSeconds} s`,
    );
    if ("refused" in admitted) return admitted.refused;
    const open = targets.filter((target) => admitted.admitted.includes(keyOf(target)));
    const posts = postsFor(reload, open);
    if (posts.length === 0) return { outcome: "skipped", reason: "no known observability account" };
    await postAll(posts, (p) => postReload(config, deps, reload, p));
    const suppressed = targets.length - open.length;
    return { outcome: "sent", messages: posts.length, ...(suppressed > 0 ? { suppressed } : {}) };
  }

  return {
    name: OBS_PLATFORM_ALERT_DESTINATION,
    handles: (kind) =>
      config.enable &&
      ((isObsPlatformKind(kind) && targetsOf(kind).length > 0) ||
        (isCloudReloadAlertKind(kind) && targetsOf(CLOUD_RELOAD_BLOCKS[kind]).length > 0) ||
        (isServiceStateAlertKind(kind) && serviceTargets(config.serviceMonitor, kind).length > 0)),
    async send(anyAlert, admission): Promise<AlertSendResult> {
      if (isServiceStateAlertKind(anyAlert.kind))
        return sendService(anyAlert as ServiceStateAlert, admission);
      if (isCloudReloadAlertKind(anyAlert.kind)) {
        const cloud = anyAlert as CloudReloadAlert;
        return sendReload({ alert: cloud, block: CLOUD_RELOAD_BLOCKS[cloud.kind], cloud: true }, admission);
      }
      if (!isTaskAlertKind(anyAlert.kind) || !isObsPlatformKind(anyAlert.kind))
        return { outcome: "skipped", reason: `the observability platform gets no ${anyAlert.kind} alerts` };
      return sendReload({ alert: anyAlert as TaskAlert, block: anyAlert.kind }, admission);
    },
  };
}
