/**
 * The server licence's expiry as a Teams Adaptive Card and as a Slack Block Kit message (the
 * `basic` message type): the title (the rendered `basicMsgTemplate`), the expiry date, the days
 * left, the alert window and the server, and buttons to the management console and the hub when
 * their links are configured. Built by the task alerts' own card and block builders
 * (teams-card.ts, slack-blocks.ts), so one Teams Workflows trigger or one Slack webhook takes both.
 */
import type { ChatTitle } from "../chat-title.ts";
import { basicSlackBlocks, type SlackPosterSettings } from "../slack-blocks.ts";
import { basicCard, type TeamsMessage } from "../teams-card.ts";
import type { LicenceTemplateFields } from "./licence-alert-fields.ts";

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
