import { createChatPoster } from "../../core/adapters/http-posters/chat-poster.ts";
import { describeChatPosterContract } from "./chat-poster.contract.ts";

describeChatPosterContract("Slack-style incoming webhook", { kind: "webhook", create: createChatPoster });

describeChatPosterContract("webhook URL not configured", {
  kind: "disabled",
  create: ({ timeoutMs }) => createChatPoster({ webhookURL: "", timeoutMs }),
});
