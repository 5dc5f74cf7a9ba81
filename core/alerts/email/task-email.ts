/**
 * The reload-task alerts by email: which kinds have an email (reload, distribute and preload
 * tasks; external program and user sync tasks have none), who receives one (task-recipients.ts),
 * its rate-limit key (the task and the recipient), and what it says — Steward's built-in bodies,
 * one pair (HTML and text) for every kind: the heading and its colour say what happened, then the
 * task, app, node, times, duration and status, the script log's head and tail in a monospace
 * block, what the repository could not tell, and links to the management console, the hub and the
 * app. They are Handlebars templates over the alert's fields plus `heading` and `accent`, so they
 * render exactly like an operator's own template.
 */
import type { EmailNotificationConfig } from "../../config/index.ts";
import { addressKey } from "../../shared/email-address.ts";
import type { AlertView } from "../alert-view.ts";
import type { TaskAlert } from "../task-alert.ts";
import { type TaskTemplateFields, taskTemplateFields } from "../task-fields.ts";
import {
  type BodyTemplate,
  type EmailContentResult,
  oneLine,
  plainEmailBody,
  renderEmail,
} from "./email-content.ts";
import { BUTTON, emailFrame, logSection, rowsTable } from "./email-frame.ts";
import type { EmailMessages } from "./email-messages.ts";
import { taskEmailRecipients } from "./task-recipients.ts";

export const TASK_EMAIL_KINDS = [
  "reloadTaskFailure",
  "reloadTaskAborted",
  "reloadTaskSuccess",
  "distributeTaskFailure",
  "distributeTaskSuccess",
  "preloadTaskFailure",
  "preloadTaskSuccess",
] as const;

export type TaskEmailKind = (typeof TASK_EMAIL_KINDS)[number];

const KIND_LOOK: Readonly<Record<TaskEmailKind, { heading: string; accent: string }>> = {
  reloadTaskFailure: { heading: "Reload failed", accent: "#c62828" },
  reloadTaskAborted: { heading: "Reload aborted", accent: "#b45f06" },
  reloadTaskSuccess: { heading: "Reload succeeded", accent: "#2e7d32" },
  distributeTaskFailure: { heading: "Distribute task failed", accent: "#c62828" },
  distributeTaskSuccess: { heading: "Distribute task succeeded", accent: "#2e7d32" },
  preloadTaskFailure: { heading: "Preload task failed", accent: "#c62828" },
  preloadTaskSuccess: { heading: "Preload task succeeded", accent: "#2e7d32" },
};

function plainSubject(kind: TaskEmailKind, fields: TaskTemplateFields): string {
  return oneLine(`Qlik Sense ${KIND_LOOK[kind].heading.toLowerCase()}: "${fields.taskName}"`);
}

export function taskEmailContent(
  kind: TaskEmailKind,
  fields: TaskTemplateFields,
  subjectTemplate: string,
  body: BodyTemplate,
): EmailContentResult {
  return renderEmail({
    context: { ...fields, ...KIND_LOOK[kind] },
    subjectTemplate,
    body,
    builtIn: { html: TASK_EMAIL_HTML, text: TASK_EMAIL_TEXT },
    plainSubject: plainSubject(kind, fields),
    plainBody: () => taskPlainBody(kind, fields),
  });
}

/**
 * The key fields as plain lines, built without a template so that it cannot fail; the HTML part
 * is the same text in a preformatted block.
 */
export function taskPlainBody(
  kind: TaskEmailKind,
  fields: TaskTemplateFields,
): { html: string; text: string } {
  const { hours, minutes, seconds } = fields.executionDuration;
  const lines = [
    `${KIND_LOOK[kind].heading}: ${fields.taskName}`,
    "",
    `App: ${fields.appName} (${fields.appId})`,
    `Status: ${fields.executionStatusText}`,
    `Node: ${fields.executingNodeName}`,
    `Started: ${fields.executionStartTime.startTimeUTC ?? "-"}`,
    `Ended: ${fields.executionStopTime.stopTimeUTC ?? "-"}`,
    `Duration: ${hours} h ${minutes} min ${seconds} s`,
    `Task id: ${fields.taskId}`,
    `Execution id: ${fields.executionId}`,
    `Message: ${fields.logMessage}`,
    ...Object.entries(fields.unavailable).map(([part, reason]) => `Not available: ${part}: ${reason}`),
    ...(fields.scriptLogTail === "" ? [] : ["", "End of the script log:", fields.scriptLogTail]),
    ...(fields.qlikSenseQMC === "" ? [] : ["", `QMC: ${fields.qlikSenseQMC}`]),
    ...(fields.qlikSenseHub === "" ? [] : [`Hub: ${fields.qlikSenseHub}`]),
  ];
  return plainEmailBody(lines);
}

export const TASK_EMAIL_HTML = emailFrame({
  title: "{{heading}}",
  accent: "{{accent}}",
  heading: "{{heading}}",
  headline: "{{taskName}}",
  content: `${rowsTable([
    [
      "App",
      '{{#if appUrl}}<a href="{{appUrl}}" style="color:#1f6feb">{{appName}}</a>{{else}}{{appName}}{{/if}}',
    ],
    ["Status", "{{executionStatusText}}"],
    ["Node", "{{executingNodeName}}"],
    ["Started ({{localTimeZone}})", "{{executionStartTime.startTimeLocal1}}"],
    ["Ended ({{localTimeZone}})", "{{executionStopTime.stopTimeLocal1}}"],
    [
      "Duration",
      "{{executionDuration.hours}} h {{executionDuration.minutes}} min {{executionDuration.seconds}} s",
    ],
    ["Run by", "{{user}}"],
    ["Execution id", '<span style="font-family:Consolas,monospace;font-size:12px">{{executionId}}</span>'],
    ["Message", "{{logMessage}}"],
  ])}
${logSection("Start of the script log", "scriptLogHeadCount", "scriptLogHead")}
${logSection("End of the script log", "scriptLogTailCount", "scriptLogTail")}
{{#each unavailable}}{{#if @first}}<h3 style="margin:20px 0 8px;font-size:15px;color:#1f2933">Not available</h3><ul style="margin:0;padding-left:20px;color:#5f6b7a;font-size:13px">{{/if}}<li>{{@key}}: {{this}}</li>{{#if @last}}</ul>{{/if}}{{/each}}
<div style="margin-top:22px">{{#if qlikSenseQMC}}<a href="{{qlikSenseQMC}}" style="${BUTTON}">Open QMC</a>{{/if}}{{#if qlikSenseHub}}<a href="{{qlikSenseHub}}" style="${BUTTON}">Open Hub</a>{{/if}}{{#if appUrl}}<a href="{{appUrl}}" style="${BUTTON}">Open app</a>{{/if}}</div>`,
  footer:
    "Sent by Steward from the scheduler's event on {{hostName}}, logged at {{logTimeStamp}} by the node's clock.",
});

export const TASK_EMAIL_TEXT = `{{heading}}: {{taskName}}

App:          {{appName}}
Status:       {{executionStatusText}}
Node:         {{executingNodeName}}
Started:      {{executionStartTime.startTimeLocal1}} ({{localTimeZone}})
Ended:        {{executionStopTime.stopTimeLocal1}} ({{localTimeZone}})
Duration:     {{executionDuration.hours}} h {{executionDuration.minutes}} min {{executionDuration.seconds}} s
Run by:       {{user}}
Execution id: {{executionId}}
Message:      {{logMessage}}
{{#if scriptLogHead}}
--- Start of the script log ---
{{scriptLogHead}}
{{/if}}{{#if scriptLogTail}}
--- End of the script log ---
{{scriptLogTail}}
{{/if}}{{#each unavailable}}{{#if @first}}
Not available:
{{/if}}  {{@key}}: {{this}}
{{/each}}
{{#if qlikSenseQMC}}QMC: {{qlikSenseQMC}}
{{/if}}{{#if qlikSenseHub}}Hub: {{qlikSenseHub}}
{{/if}}{{#if appUrl}}App: {{appUrl}}
{{/if}}`;

type Settings = EmailNotificationConfig[TaskEmailKind];

/** Lines of the script log shown: reload kinds set them; distribute and preload tasks have no log. */
function scriptLogCounts(settings: object): { head: number; tail: number } {
  const counts = settings as { headScriptLogLines?: number; tailScriptLogLines?: number };
  return { head: counts.headScriptLogLines ?? 0, tail: counts.tailScriptLogLines ?? 0 };
}

export const taskEmail: EmailMessages<TaskAlert, Settings> = {
  kinds: TASK_EMAIL_KINDS,
  settings: (config, kind) => config[kind as TaskEmailKind],
  label: "Alert email",
  plural: "alert emails",
  context: (alert) => ({ kind: alert.kind, taskId: alert.event.taskId, taskName: alert.event.taskName }),
  recipients: (alert, settings) => taskEmailRecipients(alert, settings),
  rateKey: (alert, address) => `${alert.event.taskId}|${addressKey(address)}`,
  suppressed: (settings) => `every recipient had this task's alert within ${settings.rateLimit} s`,
  content(alert, settings, body: BodyTemplate, view: AlertView): EmailContentResult {
    const fields = taskTemplateFields(
      alert,
      view.links,
      scriptLogCounts(settings),
      view.timeZone === undefined ? {} : { timeZone: view.timeZone },
    );
    return taskEmailContent(alert.kind as TaskEmailKind, fields, settings.subject, body);
  },
};
