/**
 * The Qlik Cloud reload alerts in Teams and Slack, under the site's switches: a failed cloud
 * reload is posted when the service's `reloadTaskFailure` block is on, a canceled one when
 * `reloadTaskAborted` is, to that block's webhook with its title template, message type and rate
 * limit (one post per tenant and app per `rateLimit` seconds). The basic message: the tenant, app,
 * space, owner, who reloaded, status, error and times, the end of the script log, what a lookup
 * could not tell, and buttons to the app and the tenant — built by the same card and block
 * builders as the site's task alerts, so one Teams Workflows trigger or Slack webhook takes both.
 */
import {
  CLOUD_RELOAD_ALERT_KINDS,
  CLOUD_RELOAD_BLOCKS,
  type CloudReloadAlert,
} from "../cloud-reload-alert.ts";
import { type CloudReloadTemplateFields, cloudReloadTemplateFields } from "../cloud-reload-fields.ts";
import { cutLogText } from "./chat-log-text.ts";
import { escapeMrkdwn } from "./chat-markup.ts";
import type { ChatMessages } from "./chat-messages.ts";
import { basicSlackBlocks, type SlackPosterSettings } from "./slack.ts";
import { basicCard, logBlock } from "./teams.ts";

export function cloudReloadFacts(fields: CloudReloadTemplateFields): [string, string][] {
  return [
    ["Tenant", fields.tenantName],
    ["App", fields.appName],
    ["Space", fields.spaceName],
    ["Owner", fields.appOwnerName],
    ["Reloaded by", fields.reloadedBy],
    ["Status", fields.status],
    ["Error", `${fields.errorCode}: ${fields.errorMessage}`],
    ["Started (UTC)", fields.startTime],
    ["Ended (UTC)", fields.endTime],
    ["Reload id", fields.reloadId],
  ];
}

const links = (fields: CloudReloadTemplateFields): [string, string][] => [
  ["Open app", fields.appUrl],
  ["Open tenant", fields.tenantUrl],
];

const unavailableText = (fields: CloudReloadTemplateFields) => {
  const parts = Object.entries(fields.unavailable);
  return parts.length === 0 ? "" : `Not available: ${parts.map(([p, r]) => `${p} (${r})`).join("; ")}`;
};

export const cloudReloadChat: ChatMessages<CloudReloadAlert, CloudReloadTemplateFields> = {
  kinds: CLOUD_RELOAD_ALERT_KINDS,
  settings: (config, kind) => config[CLOUD_RELOAD_BLOCKS[kind as CloudReloadAlert["kind"]]],
  label: "Qlik Cloud alert",
  context: (alert) => ({ kind: alert.kind, tenant: alert.tenant.name, appId: alert.run.appId }),
  rateKey: (alert, service) => `${service}|cloud|${alert.kind}|${alert.tenant.name}|${alert.run.appId}`,
  suppressed: (settings) => `this app had an alert within ${settings.rateLimit} s`,
  fields(alert, settings) {
    const lines = settings as unknown as { headScriptLogLines: number; tailScriptLogLines: number };
    const fields = cloudReloadTemplateFields(alert, {
      head: lines.headScriptLogLines,
      tail: lines.tailScriptLogLines,
    });
    return {
      ...fields,
      scriptLogHead: cutLogText(fields.scriptLogHead, "head"),
      scriptLogTail: cutLogText(fields.scriptLogTail, "tail"),
    };
  },
  plainTitle: (_alert, fields) => `${fields.heading}: "${fields.taskName}"`,
  teams: (fields, title, _settings, alert) => {
    const note = unavailableText(fields);
    return basicCard({
      title: title.markup,
      attention: alert.kind === "qlikCloudReloadFailure",
      facts: cloudReloadFacts(fields),
      body: [
        ...logBlock("End of the script log", fields.scriptLogTail),
        ...(note === ""
          ? []
          : [{ type: "TextBlock", text: note, isSubtle: true, wrap: true, size: "Small" }]),
      ],
      links: links(fields),
    });
  },
  slack: (fields, title, settings) =>
    basicSlackBlocks(
      {
        title,
        facts: cloudReloadFacts(fields),
        blocks:
          fields.scriptLogTail === ""
            ? []
            : [
                {
                  type: "section",
                  text: {
                    type: "mrkdwn",
                    text: `*End of the script log*\n\`\`\`${escapeMrkdwn(fields.scriptLogTail)}\`\`\``,
                  },
                },
              ],
        links: links(fields),
      },
      settings as unknown as SlackPosterSettings,
    ),
};
