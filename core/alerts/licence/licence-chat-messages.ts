/**
 * The server licence's expiry as a Teams Adaptive Card and as a Slack Block Kit message (the
 * `basic` message type): the title (the rendered `basicMsgTemplate`), the expiry date, the days
 * left, the alert window and the server, and buttons to the management console and the hub when
 * their links are configured. The same shapes as the task alerts' basic messages, so one Teams
 * Workflows trigger or one Slack webhook takes both.
 */
import type { SlackPosterSettings } from "../slack-blocks.ts";
import { slackPoster } from "../slack-blocks.ts";
import { type TeamsMessage, teamsMessage } from "../teams-card.ts";
import type { LicenceTemplateFields } from "./licence-alert-fields.ts";

const facts = (fields: LicenceTemplateFields): [string, string][] => [
  ["Expiry date", fields.expiryDate],
  ["Days until expiry", String(fields.daysUntilExpiry)],
  ["Alert window", `${fields.alertDaysBefore} days`],
  ["Server", fields.hostName === "" ? "-" : fields.hostName],
];

const links = (fields: LicenceTemplateFields): [string, string][] =>
  (
    [
      ["Open QMC", fields.qlikSenseQMC],
      ["Open Hub", fields.qlikSenseHub],
    ] as [string, string][]
  ).filter(([, url]) => url !== "");

export function licenceTeamsCard(fields: LicenceTemplateFields, title: string): TeamsMessage {
  return teamsMessage({
    type: "AdaptiveCard",
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    version: "1.4",
    msteams: { width: "Full" },
    body: [
      {
        type: "TextBlock",
        text: title,
        size: "Large",
        weight: "Bolder",
        color: fields.licenseExpired ? "Attention" : "Warning",
        wrap: true,
      },
      { type: "FactSet", facts: facts(fields).map(([factTitle, value]) => ({ title: factTitle, value })) },
    ],
    actions: links(fields).map(([linkTitle, url]) => ({ type: "Action.OpenUrl", title: linkTitle, url })),
  });
}

/** Slack refuses a header over 150 characters and a text over 3000. */
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function licenceSlackMessage(
  fields: LicenceTemplateFields,
  title: string,
  settings: SlackPosterSettings,
): unknown {
  const buttons = links(fields).map(([text, url]) => ({
    type: "button",
    text: { type: "plain_text", text },
    url,
  }));
  return {
    ...slackPoster(settings),
    // The notification text of phones and desktop banners, which do not show blocks.
    text: cut(title, 3000),
    blocks: [
      { type: "header", text: { type: "plain_text", text: cut(title, 150) } },
      {
        type: "section",
        fields: facts(fields).map(([label, value]) => ({ type: "mrkdwn", text: `*${label}*\n${value}` })),
      },
      ...(buttons.length === 0 ? [] : [{ type: "actions", elements: buttons }]),
    ],
  };
}
