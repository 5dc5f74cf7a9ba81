/**
 * Slack, the format of its messages for the chat destination (chat-destination.ts; incoming
 * webhook, Block Kit): a header with the title, the facts as section fields, blocks after them (a
 * log in a code block, a note), and buttons to the alert's links; what each kind of alert puts
 * there is in that kind's file (task-chat.ts, licence-chat.ts). Slack refuses a message whose
 * header is over 150 characters, a field over 2000 or a text over 3000, or a button without a
 * URL, so every text is cut to its limit and a button is left out when its link is not
 * configured. Every mrkdwn text made of data is escaped (chat-markup.ts): the fields and the
 * notification text, which is the title rendered with its fields escaped; the header is plain
 * text, which Slack shows as written.
 */
import type { SlackNotificationConfig } from "../../config/index.ts";
import { escapeMrkdwn } from "./chat-markup.ts";
import type { ChatFormat } from "./chat-messages.ts";
import type { ChatTitle } from "./chat-title.ts";

/** The settings Slack reads from the body, which every Slack block (task kinds, licence) has. */
export type SlackPosterSettings = Pick<
  SlackNotificationConfig["serverLicenseExpiry"],
  "channel" | "fromUser" | "iconEmoji"
>;

export const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const field = (label: string, value: string) => ({
  type: "mrkdwn",
  text: cut(`*${label}*\n${escapeMrkdwn(value === "" ? "-" : value)}`, 2000),
});

/** The buttons: one per configured link, none for a link that is not configured (Slack refuses a button without a URL). */
function buttons(links: readonly (readonly [string, string])[]): unknown[] {
  const elements = links
    .filter(([, url]) => url !== "")
    .map(([text, url]) => ({ type: "button", text: { type: "plain_text", text }, url }));
  return elements.length === 0 ? [] : [{ type: "actions", elements }];
}

/** The poster settings Slack reads from the body: channel, name and icon, when set. */
export function slackPoster(settings: SlackPosterSettings): Record<string, string> {
  return {
    ...(settings.channel === "" ? {} : { channel: settings.channel }),
    ...(settings.fromUser === "" ? {} : { username: settings.fromUser }),
    ...(settings.iconEmoji === "" ? {} : { icon_emoji: settings.iconEmoji }),
  };
}

/** What a basic message shows: every alert's message (reload tasks, the server licence) has this shape. */
export interface BasicSlackMessage {
  readonly title: ChatTitle;
  readonly facts: readonly (readonly [string, string])[];
  /** Blocks after the facts (a log, what was not available). */
  readonly blocks?: readonly unknown[];
  /** Button titles and URLs; those without a URL are left out. */
  readonly links: readonly (readonly [string, string])[];
}

export function basicSlackBlocks(message: BasicSlackMessage, settings: SlackPosterSettings): unknown {
  return {
    ...slackPoster(settings),
    // The notification text of phones and desktop banners, which do not show blocks.
    text: cut(message.title.markup, 3000),
    blocks: [
      { type: "header", text: { type: "plain_text", text: cut(message.title.plain, 150) } },
      { type: "section", fields: message.facts.map(([label, value]) => field(label, value)) },
      ...(message.blocks ?? []),
      ...buttons(message.links),
    ],
  };
}

/** A formatted template's parsed output: an object with `blocks` or `text`, with the poster settings added. */
export function asSlackMessage(value: unknown, settings: SlackPosterSettings): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("the template must render a JSON object");
  const message = value as Record<string, unknown>;
  if (!Array.isArray(message.blocks) && typeof message.text !== "string")
    throw new Error("the template must render an object with blocks or text");
  return { ...slackPoster(settings), ...message };
}

/** Slack for the chat destination: mrkdwn escaped, the kind's basic message, or the operator's, with the poster settings. */
export const SLACK: ChatFormat = {
  name: "slack",
  escape: escapeMrkdwn,
  basic: (messages, fields, title, settings, alert) => messages.slack(fields, title, settings, alert),
  formatted: (parsed, settings) => asSlackMessage(parsed, settings as unknown as SlackPosterSettings),
};
