/**
 * The reload-task alerts in Teams and Slack: failed and aborted reloads whose kind is switched
 * on, a rate limit per task (one message per task per `rateLimit` seconds), and the basic message
 * in each service: the facts, in order (task, app, status, node, start and end in the zone of the
 * local times, duration, execution), the end of the script log, what the repository could not
 * tell, and the links to the management console, the hub and the app. Log text is cut to a size
 * the services accept (chat-log-text.ts) before the fields reach a title or a template.
 */
import type { TeamsNotificationConfig } from "../../config/index.ts";
import type { TaskAlert } from "../task-alert.ts";
import { type TaskTemplateFields, taskTemplateFields } from "../task-fields.ts";
import { chatFields, cutLogText } from "./chat-log-text.ts";
import { escapeCardMarkdown, escapeMrkdwn } from "./chat-markup.ts";
import type { ChatMessages } from "./chat-messages.ts";
import type { ChatTitle } from "./chat-title.ts";
import { basicSlackBlocks, cut, type SlackPosterSettings } from "./slack.ts";
import { basicCard, logBlock, type TeamsMessage } from "./teams.ts";

/** The kinds chat alerts take: failed and aborted reloads. */
export const TASK_CHAT_KINDS = ["reloadTaskFailure", "reloadTaskAborted"] as const;
export type TaskChatKind = (typeof TASK_CHAT_KINDS)[number];

type TaskChatSettings = TeamsNotificationConfig[TaskChatKind];

export function taskFacts(fields: TaskTemplateFields): [string, string][] {
  const { hours, minutes, seconds } = fields.executionDuration;
  return [
    ["Task", fields.taskName],
    ["App", fields.appName],
    ["Status", fields.executionStatusText],
    ["Node", fields.executingNodeName],
    [`Started (${fields.localTimeZone})`, fields.executionStartTime.startTimeLocal1 ?? "-"],
    [`Ended (${fields.localTimeZone})`, fields.executionStopTime.stopTimeLocal1 ?? "-"],
    ["Duration", `${hours} h ${minutes} min ${seconds} s`],
    ["Execution id", fields.executionId],
  ];
}

export function taskLinks(fields: TaskTemplateFields): [string, string][] {
  return [
    ["Open QMC", fields.qlikSenseQMC],
    ["Open Hub", fields.qlikSenseHub],
    ["Open app", fields.appUrl],
  ];
}

/** The basic Teams card of a task alert: `title` is the rendered `basicMsgTemplate`; `failure` colours it red, else amber. */
export function taskTeamsCard(fields: TaskTemplateFields, title: string, failure: boolean): TeamsMessage {
  const unavailable = Object.entries(fields.unavailable);
  return basicCard({
    title,
    attention: failure,
    facts: taskFacts(fields),
    body: [
      ...logBlock("End of the script log", fields.scriptLogTail),
      ...(unavailable.length === 0
        ? []
        : [
            {
              type: "TextBlock",
              text: escapeCardMarkdown(
                `Not available: ${unavailable.map(([part, reason]) => `${part} (${reason})`).join("; ")}`,
              ),
              isSubtle: true,
              wrap: true,
              size: "Small",
            },
          ]),
    ],
    links: taskLinks(fields),
  });
}

/** The basic Slack message of a task alert: `title` is the rendered `basicMsgTemplate`. */
export function taskSlackMessage(
  fields: TaskTemplateFields,
  title: ChatTitle,
  settings: SlackPosterSettings,
): unknown {
  const unavailable = Object.entries(fields.unavailable);
  return basicSlackBlocks(
    {
      title,
      facts: taskFacts(fields),
      blocks: [
        ...(fields.scriptLogTail === ""
          ? []
          : [
              {
                type: "section",
                text: {
                  type: "mrkdwn",
                  text: `*End of the script log*\n\`\`\`${cutLogText(escapeMrkdwn(fields.scriptLogTail), "tail")}\`\`\``,
                },
              },
            ]),
        ...(unavailable.length === 0
          ? []
          : [
              {
                type: "context",
                elements: [
                  {
                    type: "mrkdwn",
                    text: cut(
                      escapeMrkdwn(`Not available: ${unavailable.map(([p, r]) => `${p} (${r})`).join("; ")}`),
                      3000,
                    ),
                  },
                ],
              },
            ]),
      ],
      links: taskLinks(fields),
    },
    settings,
  );
}

const plainTitle = (kind: TaskChatKind, fields: Pick<TaskTemplateFields, "taskName">) =>
  `Qlik Sense reload ${kind === "reloadTaskFailure" ? "failed" : "aborted"}: "${fields.taskName}"`;

export const taskChat: ChatMessages<TaskAlert, TaskTemplateFields> = {
  kinds: TASK_CHAT_KINDS,
  settings: (config, kind) => config[kind as TaskChatKind],
  label: "alert",
  context: (alert) => ({ kind: alert.kind, taskId: alert.event.taskId, taskName: alert.event.taskName }),
  rateKey: (alert) => `${alert.kind}|${alert.event.taskId}`,
  suppressed: (settings) => `this task had an alert within ${settings.rateLimit} s`,
  fields(alert, settings, view) {
    const lines = settings as TaskChatSettings;
    return chatFields(
      taskTemplateFields(
        alert,
        view.links,
        { head: lines.headScriptLogLines, tail: lines.tailScriptLogLines },
        view.timeZone === undefined ? {} : { timeZone: view.timeZone },
      ),
    );
  },
  plainTitle: (alert, fields) => plainTitle(alert.kind as TaskChatKind, fields),
  teams: (fields, title, _settings, alert) =>
    taskTeamsCard(fields, title.markup, alert.kind === "reloadTaskFailure"),
  slack: (fields, title, settings) =>
    taskSlackMessage(fields, title, settings as unknown as SlackPosterSettings),
};
