/** The Slack destination: chat-destination.ts with the Block Kit messages of slack-blocks.ts. */
import type { SlackNotificationConfig } from "../config/schema/config.ts";
import type { AlertDestination } from "../task-events/alert-destination.ts";
import { type ChatDestinationDeps, createChatDestination } from "./chat-destination.ts";
import { escapeMrkdwn } from "./chat-markup.ts";
import { asSlackMessage, basicSlackMessage } from "./slack-blocks.ts";

type SlackKindSettings = SlackNotificationConfig["reloadTaskFailure"];

export function createSlackDestination(
  config: SlackNotificationConfig,
  deps: ChatDestinationDeps,
): AlertDestination {
  return createChatDestination<SlackKindSettings>(
    config,
    {
      name: "slack",
      escape: escapeMrkdwn,
      basic: (fields, title, _kind, settings) => basicSlackMessage(fields, title, settings),
      formatted: (parsed, settings) => asSlackMessage(parsed, settings),
    },
    deps,
  );
}
