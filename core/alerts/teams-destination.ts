/** The Microsoft Teams destination: chat-destination.ts with the Adaptive Card messages of teams-card.ts. */
import type { TeamsNotificationConfig } from "../config/schema/config.ts";
import type { AlertDestination } from "../task-events/alert-destination.ts";
import { type ChatDestinationDeps, createChatDestination } from "./chat-destination.ts";
import { escapeCardMarkdown } from "./chat-markup.ts";
import { asTeamsMessage, basicTeamsCard } from "./teams-card.ts";

type TeamsKindSettings = TeamsNotificationConfig["reloadTaskFailure"];

export function createTeamsDestination(
  config: TeamsNotificationConfig,
  deps: ChatDestinationDeps,
): AlertDestination {
  return createChatDestination<TeamsKindSettings>(
    config,
    {
      name: "teams",
      escape: escapeCardMarkdown,
      basic: (fields, title, kind) => basicTeamsCard(fields, title.markup, kind === "reloadTaskFailure"),
      formatted: (parsed) => asTeamsMessage(parsed),
    },
    deps,
  );
}
