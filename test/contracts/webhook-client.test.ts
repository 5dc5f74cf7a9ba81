import { createWebhookClient } from "../../core/adapters/http-clients/webhook-client.ts";
import { describeWebhookClientContract } from "./webhook-client.contract.ts";

describeWebhookClientContract("node:http", () => createWebhookClient());
