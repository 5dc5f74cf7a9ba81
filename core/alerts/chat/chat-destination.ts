/**
 * The chat destination of one service (Teams, Slack: its format, teams.ts or slack.ts), one for
 * every kind of alert it posts (KINDS: the reload-task kinds of task-chat.ts, the server
 * licence's expiry of licence-chat.ts): a rate limit per kind's key inside the destination's
 * budget of alerts per minute (the dispatcher's admission), the title rendered from
 * `basicMsgTemplate` with the fields escaped for the service's markup (chat-title.ts), the
 * `formatted` message from the operator's template file with the basic message as the fallback
 * when the file cannot be read, rendered or used (logged, never lost), and one post with the
 * section's time limit.
 */
import type { Logger } from "../../ports.ts";
import type { AlertView } from "../alert-view.ts";
import { type Alert, type AlertDestination, AlertSendError } from "../types.ts";
import type { ChatConfig, ChatFormat, ChatKindSettings, ChatMessages } from "./chat-messages.ts";
import { type ChatTitle, fallbackChatTitle, renderChatTitle } from "./chat-title.ts";
import type { ChatWebhookClient } from "./chat-webhook-client.ts";
import { cloudReloadChat } from "./cloud-reload-chat.ts";
import { renderJsonTemplate } from "./json-template.ts";
import { licenceChat } from "./licence-chat.ts";
import { serviceStateChat } from "./service-state-chat.ts";
import { taskChat } from "./task-chat.ts";

/** The kinds chat posts, one line each; each answers only the alerts of the kinds it lists. */
const KINDS = [taskChat, licenceChat, cloudReloadChat, serviceStateChat] as unknown as readonly ChatMessages<
  Alert,
  object
>[];

export interface ChatDestinationDeps {
  readonly client: ChatWebhookClient;
  readonly readTemplate: (path: string) => Promise<string>;
  readonly logger: Logger;
  readonly view: AlertView;
}

export function createChatDestination(
  config: ChatConfig,
  format: ChatFormat,
  deps: ChatDestinationDeps,
): AlertDestination {
  const { logger } = deps;
  const messagesOf = (kind: Alert["kind"]) => KINDS.find((messages) => messages.kinds.includes(kind));

  /** The title from `basicMsgTemplate`, or the plain one when the template cannot be used (logged). */
  function titleOf(
    alert: Alert,
    messages: ChatMessages<Alert, object>,
    settings: ChatKindSettings,
    fields: object,
  ): ChatTitle {
    const fallback = (shown: object) => messages.plainTitle(alert, shown);
    try {
      return renderChatTitle(settings.basicMsgTemplate, fields, format.escape, fallback);
    } catch (error) {
      logger.warn(`${format.name} ${messages.label}: title template not used`, {
        ...messages.context(alert),
        problem: (error as Error).message,
      });
      return fallbackChatTitle(fields, format.escape, fallback);
    }
  }

  async function message(alert: Alert, messages: ChatMessages<Alert, object>, settings: ChatKindSettings) {
    const fields = messages.fields(alert, settings, deps.view);
    if (settings.messageType === "formatted") {
      try {
        const source = await deps.readTemplate(settings.templateFile);
        return format.formatted(renderJsonTemplate(source, fields, format.escape), settings);
      } catch (error) {
        logger.warn(
          `${format.name} ${messages.label}: template not used, the basic message is sent instead`,
          {
            ...messages.context(alert),
            templateFile: settings.templateFile,
            problem: (error as Error).message,
          },
        );
      }
    }
    return format.basic(messages, fields, titleOf(alert, messages, settings, fields), settings, alert);
  }

  return {
    name: format.name,
    handles(kind) {
      const messages = messagesOf(kind);
      return config.enable && messages?.settings(config, kind).enable === true;
    },
    async send(alert, admission) {
      const messages = messagesOf(alert.kind);
      if (messages === undefined)
        return { outcome: "skipped", reason: `${format.name} has no ${alert.kind} alerts` };
      const settings = messages.settings(config, alert.kind);
      const admitted = await admission.admit(
        [messages.rateKey(alert, format.name)],
        settings.rateLimit,
        messages.suppressed(settings),
      );
      if ("refused" in admitted) return admitted.refused;
      const body = await message(alert, messages, settings);
      try {
        await deps.client.post(settings.webhookURL, body, config.timeoutSeconds * 1000);
      } catch (error) {
        throw new AlertSendError(`${format.name} ${messages.label} not posted: ${(error as Error).message}`, {
          cause: error,
        });
      }
      return { outcome: "sent", messages: 1 };
    },
  };
}
