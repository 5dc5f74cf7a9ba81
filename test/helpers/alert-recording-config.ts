/**
 * The alert destinations of the byte-for-byte recording test
 * (test/integration/local/alert-output-recording.test.ts): every channel switched on for the
 * reload-task kinds and for the server licence, basic messages for some kinds and the operator's
 * own templates (email, Teams, Slack) for others, so that both ways of writing a message are
 * recorded; and the template files themselves.
 */
import { join } from "node:path";

export interface RecordingTargets {
  /** The scratch directory; its `templates/` holds the template files. */
  readonly dir: string;
  readonly smtpPort: number;
  /** The capture server's base URL: each channel posts to its own path there. */
  readonly capture: string;
}

const email = (recipients: string[], more: Record<string, unknown> = {}) => ({
  enable: true,
  fromAddress: "Qlik Sense <steward@example.com>",
  recipients,
  ...more,
});

const ACCOUNTS = [
  { accountName: "ops", insertApiKey: "ops-insert-key", accountId: 1001 },
  { accountName: "finance", insertApiKey: "finance-insert-key", accountId: 1002 },
];

/** The reload-task destinations: every kind by email and as points, failures and aborts everywhere else. */
export function taskDestinations(targets: RecordingTargets & { readonly udpPort: number }) {
  const { dir, capture } = targets;
  const templates = join(dir, "templates");
  return {
    taskEvents: {
      enable: true,
      udpServerConfig: { serverHost: "127.0.0.1", portTaskEvents: targets.udpPort },
      timeseriesdb: {
        tag: { static: [{ name: "qs_env", value: "lab" }] },
        reloadTaskFailure: {
          enable: true,
          tailScriptLogLines: 3,
          tag: { static: [{ name: "kind", value: "f" }] },
        },
        reloadTaskSuccess: {
          enable: true,
          allReloadTasks: { enable: true },
          headScriptLogLines: 2,
          tailScriptLogLines: 2,
        },
        externalProgramTaskFailure: { enable: true },
        externalProgramTaskSuccess: { enable: true },
        userSyncTaskFailure: { enable: true },
        userSyncTaskSuccess: { enable: true },
        distributeTaskFailure: { enable: true },
        distributeTaskSuccess: { enable: true },
        preloadTaskFailure: { enable: true },
        preloadTaskSuccess: { enable: true },
      },
      sendToMQTT: { enable: true },
    },
    emailNotification: {
      enable: true,
      smtp: { host: "127.0.0.1", port: targets.smtpPort },
      reloadTaskFailure: email(["ops@example.com"], {
        headScriptLogLines: 2,
        tailScriptLogLines: 3,
        appOwnerAlert: { enable: true },
      }),
      reloadTaskAborted: email(["oncall@example.com"], {
        priority: "normal",
        subject: "Aborted {{taskName}} at {{executionStopTime.stopTimeUTC}}",
        bodyFileDirectory: templates,
        htmlTemplateFile: "aborted-email",
      }),
      reloadTaskSuccess: email(["reports@example.com"], { priority: "low" }),
      distributeTaskFailure: email(["distribute@example.com"]),
      distributeTaskSuccess: email(["distribute@example.com"]),
      preloadTaskFailure: email(["preload@example.com"]),
      preloadTaskSuccess: email(["preload@example.com"]),
    },
    teamsNotification: {
      enable: true,
      reloadTaskFailure: { enable: true, webhookURL: `${capture}/teams/failed` },
      reloadTaskAborted: {
        enable: true,
        webhookURL: `${capture}/teams/aborted`,
        messageType: "formatted",
        templateFile: join(templates, "aborted-teams.handlebars"),
      },
    },
    slackNotification: {
      enable: true,
      reloadTaskFailure: { enable: true, webhookURL: `${capture}/slack/failed`, tailScriptLogLines: 4 },
      reloadTaskAborted: {
        enable: true,
        webhookURL: `${capture}/slack/aborted`,
        messageType: "formatted",
        templateFile: join(templates, "aborted-slack.handlebars"),
      },
    },
    webhookNotification: {
      enable: true,
      reloadTaskFailure: {
        webhooks: [
          { description: "ticketing", webhookURL: `${capture}/hooks/failed?source=steward` },
          { description: "pager", webhookURL: `${capture}/hooks/failed-get`, httpMethod: "GET" },
        ],
      },
      reloadTaskAborted: { webhooks: [{ webhookURL: `${capture}/hooks/aborted`, httpMethod: "put" }] },
    },
    incidentTool: {
      newRelic: {
        enable: true,
        destinationAccount: { event: ["ops"], log: ["ops"] },
        url: { event: `${capture}/obs/event`, log: `${capture}/obs/log` },
        reloadTaskFailure: {
          destination: {
            event: {
              enable: true,
              sendToAccount: { always: { enable: true, account: ["finance"] } },
              attribute: { static: [{ name: "team", value: "bi" }] },
            },
            log: { enable: true, tailScriptLogLines: 2 },
          },
          sharedSettings: {
            header: [{ name: "X-Source", value: "steward" }],
            attribute: { static: [{ name: "env", value: "lab" }] },
          },
        },
        reloadTaskAborted: {
          destination: {
            event: { enable: true, attribute: { dynamic: { useAppTags: false, useTaskTags: true } } },
          },
        },
      },
    },
    thirdPartyToolsCredentials: { obsPlatform: ACCOUNTS },
  };
}

/** The server licence's destinations; `formatted`: the operator's templates where the channel has them. */
export function licenceDestinations(targets: RecordingTargets & { readonly formatted: boolean }) {
  const { dir, capture, formatted } = targets;
  const templates = join(dir, "templates");
  const chat = (channel: string, template: string, useTemplate: boolean) => ({
    enable: true,
    webhookURL: `${capture}/${channel}/licence`,
    ...(useTemplate ? { messageType: "formatted", templateFile: join(templates, template) } : {}),
  });
  return {
    licenseMonitor: {
      enable: true,
      accessLicenses: { enable: false },
      version: { enable: false },
      timeseriesdb: { tag: { static: [{ name: "qs_env", value: "lab" }] } },
      sendToMQTT: { enable: true },
      serverLicense: {
        alertDaysBefore: 30,
        webhook: { enable: true, sendRecurring: { enable: true }, sendAlert: { enable: true } },
      },
    },
    emailNotification: {
      enable: true,
      smtp: { host: "127.0.0.1", port: targets.smtpPort },
      serverLicenseExpiry: email(["licences@example.com"], {
        ...(formatted ? { subject: "Licence: {{message}} ({{daysUntilExpiry}})" } : {}),
        ...(formatted ? { bodyFileDirectory: templates, htmlTemplateFile: "licence-email.handlebars" } : {}),
      }),
    },
    teamsNotification: {
      enable: true,
      serverLicenseExpiry: chat("teams", "licence-teams.handlebars", formatted),
    },
    slackNotification: {
      enable: true,
      serverLicenseExpiry: chat("slack", "licence-slack.handlebars", !formatted),
    },
    webhookNotification: {
      enable: true,
      qlikSenseServerLicenseMonitor: {
        webhooks: [
          { description: "status", webhookURL: `${capture}/hooks/licence-status`, httpMethod: "GET" },
        ],
      },
      qlikSenseServerLicenseExpiryAlert: { webhooks: [{ webhookURL: `${capture}/hooks/licence-expiry` }] },
    },
  };
}

export const TASK_TEMPLATES: Readonly<Record<string, string>> = {
  "aborted-email.handlebars": `<html><body><h1>{{taskName}}</h1><p>{{logMessage}}</p>
{{#each executionDetails}}<p>{{timestampUTC}} {{timestampLocal1}} {{message}}</p>{{/each}}
<pre>{{scriptLogTail}}</pre>{{#each genericUrls}}<a href="{{url}}">{{linkText}}</a>{{/each}}
<p>{{appOwnerName}} {{appOwnerEmail}} {{#each taskTags}}[{{this}}]{{/each}}</p></body></html>
`,
  "aborted-teams.handlebars": `{"type":"AdaptiveCard","version":"1.4","body":[
{"type":"TextBlock","text":"Aborted: {{escapeMarkup taskName}} on {{escapeMarkup executingNodeName}}"},
{"type":"TextBlock","text":"{{escapeMarkup scriptLogTail}}","wrap":true}],
"actions":[{"type":"Action.OpenUrl","title":"App","url":"{{appUrl}}"}]}
`,
  "aborted-slack.handlebars": `{"text":"{{escapeMarkup taskName}} aborted","blocks":[{"type":"section","text":{"type":"mrkdwn",
"text":"*{{escapeMarkup taskName}}* ({{appName}}) {{escapeMarkup logMessage}}\\n\`\`\`{{scriptLogHead}}\`\`\`"}}]}
`,
};

export const LICENCE_TEMPLATES: Readonly<Record<string, string>> = {
  "licence-email.handlebars": `<p>{{message}} ({{daysUntilExpiry}} days, {{expiryDateStr}}, {{alertDaysBefore}})
<a href="{{qlikSenseQMC}}">QMC</a> {{hostName}} {{alertTime}} {{event}}</p>
`,
  "licence-teams.handlebars": `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive",
"contentUrl":null,"content":{"type":"AdaptiveCard","version":"1.4","body":[
{"type":"TextBlock","text":"{{escapeMarkup message}} ({{daysUntilExpiry}})"}]}}]}
`,
  "licence-slack.handlebars": `{"text":"{{message}}","blocks":[{"type":"section","text":{"type":"mrkdwn",
"text":"*{{escapeMarkup event}}* {{daysUntilExpiry}} days, {{expiryDateStr}} on {{hostName}}"}}]}
`,
};
