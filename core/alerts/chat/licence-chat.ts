/**
 * The server licence's expiry in Teams and Slack (`serverLicenseExpiry` of their sections): at
 * most one post per `rateLimit` seconds (one a day by default), and the basic message as a Teams
 * Adaptive Card and as Slack blocks: the title (the rendered `basicMsgTemplate`, the sentence by
 * default), the expiry date, the days left, the alert window and the server, and buttons to the
 * management console and the hub when their links are configured. Built by the same card and
 * block builders as the task alerts (teams.ts, slack.ts), so one Teams Workflows trigger or one
 * Slack webhook takes both.
 */
import { LICENCE_EXPIRY_KIND, type LicenceExpiryAlert } from "../licence-alert.ts";
import { type LicenceTemplateFields, licenceTemplateFields } from "../licence-fields.ts";
import type { ChatMessages } from "./chat-messages.ts";
import type { ChatTitle } from "./chat-title.ts";
import { basicSlackBlocks, type SlackPosterSettings } from "./slack.ts";
import { basicCard, type TeamsMessage } from "./teams.ts";

const facts = (fields: LicenceTemplateFields): [string, string][] => [
  ["Expiry date", fields.expiryDate],
  ["Days until expiry", String(fields.daysUntilExpiry)],
  ["Alert window", `${fields.alertDaysBefore} days`],
  ["Server", fields.hostName],
];

const links = (fields: LicenceTemplateFields): [string, string][] => [
  ["Open QMC", fields.qlikSenseQMC],
  ["Open Hub", fields.qlikSenseHub],
];

export function licenceTeamsCard(fields: LicenceTemplateFields, title: ChatTitle): TeamsMessage {
  return basicCard({
    title: title.markup,
    attention: fields.licenseExpired,
    facts: facts(fields),
    links: links(fields),
  });
}

export function licenceSlackMessage(
  fields: LicenceTemplateFields,
  title: ChatTitle,
  settings: SlackPosterSettings,
): unknown {
  return basicSlackBlocks({ title, facts: facts(fields), links: links(fields) }, settings);
}

export const licenceChat: ChatMessages<LicenceExpiryAlert, LicenceTemplateFields> = {
  kinds: [LICENCE_EXPIRY_KIND],
  settings: (config) => config.serverLicenseExpiry,
  label: "licence alert",
  context: () => ({}),
  rateKey: (_alert, service) => `${service}|license-alert`,
  suppressed: (settings) => `the licence had an alert within ${settings.rateLimit} s`,
  fields: (alert, _settings, view) => licenceTemplateFields(alert, view.links, view.hostName),
  plainTitle: (_alert, fields) => fields.message,
  teams: (fields, title) => licenceTeamsCard(fields, title),
  slack: (fields, title, settings) =>
    licenceSlackMessage(fields, title, settings as unknown as SlackPosterSettings),
};
