import { createChatClient } from "../../core/adapters/http-clients/chat-client.ts";
import { describeChatClientContract } from "./chat-client.contract.ts";

describeChatClientContract("Slack-style incoming webhook", { kind: "webhook", create: createChatClient });

describeChatClientContract("webhook URL not configured", {
  kind: "disabled",
  create: ({ timeoutMs }) => createChatClient({ webhookURL: "", timeoutMs }),
});
