import { createChatWebhookClient } from "../../core/adapters/http-clients/chat-webhook-client.ts";
import { describeChatWebhookClientContract } from "./chat-webhook-client.contract.ts";

describeChatWebhookClientContract("fetch", () => createChatWebhookClient());
