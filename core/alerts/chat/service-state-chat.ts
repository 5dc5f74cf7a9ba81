/**
 * A watched Windows service's change of state in Teams and Slack (`serviceStopped` and
 * `serviceStarted` of their sections): at most one post per service and block per `rateLimit`
 * seconds (Butler's 30), and the basic message as a Teams Adaptive Card and as Slack blocks: the
 * title (the rendered `basicMsgTemplate`, Butler's sentence by default), the host, the service's
 * names, the previous and new state, the start type and the time of the reading, and a button to
 * the management console when its link is configured. Built by the same card and block builders
 * as the other alerts (teams.ts, slack.ts), so one Teams Workflows trigger or Slack webhook takes
 * them all.
 */
import { SERVICE_STATE_ALERT_KINDS, type ServiceStateAlert } from "../service-state-alert.ts";
import { type ServiceTemplateFields, serviceTemplateFields } from "../service-state-fields.ts";
import type { ChatMessages } from "./chat-messages.ts";
import type { ChatTitle } from "./chat-title.ts";
import { basicSlackBlocks, type SlackPosterSettings } from "./slack.ts";
import { basicCard, type TeamsMessage } from "./teams.ts";

const facts = (fields: ServiceTemplateFields): [string, string][] => [
  ["Host", fields.host],
  ["Service", `${fields.serviceFriendlyName} (${fields.serviceName})`],
  ["Display name", fields.serviceDisplayName],
  ["State", `${fields.servicePrevStatus} → ${fields.serviceStatus}`],
  ["Start type", fields.serviceStartType],
  ["Read at (UTC)", fields.alertTime],
];

const links = (fields: ServiceTemplateFields): [string, string][] => [["Open QMC", fields.qlikSenseQMC]];

export function serviceTeamsCard(fields: ServiceTemplateFields, title: ChatTitle): TeamsMessage {
  return basicCard({
    title: title.markup,
    attention: fields.serviceNotRunning,
    facts: facts(fields),
    links: links(fields),
  });
}

export function serviceSlackMessage(
  fields: ServiceTemplateFields,
  title: ChatTitle,
  settings: SlackPosterSettings,
): unknown {
  return basicSlackBlocks({ title, facts: facts(fields), links: links(fields) }, settings);
}

export const serviceStateChat: ChatMessages<ServiceStateAlert, ServiceTemplateFields> = {
  kinds: SERVICE_STATE_ALERT_KINDS,
  settings: (config, kind) => config[kind as ServiceStateAlert["kind"]],
  label: "Windows service alert",
  context: (alert) => ({ kind: alert.kind, host: alert.host, service: alert.service }),
  rateKey: (alert, service) => `${service}|${alert.kind}|${JSON.stringify([alert.host, alert.service])}`,
  suppressed: (settings) => `this service had an alert within ${settings.rateLimit} s`,
  fields: (alert, _settings, view) => serviceTemplateFields(alert, view.links),
  plainTitle: (_alert, fields) => fields.message,
  teams: (fields, title) => serviceTeamsCard(fields, title),
  slack: (fields, title, settings) =>
    serviceSlackMessage(fields, title, settings as unknown as SlackPosterSettings),
};
