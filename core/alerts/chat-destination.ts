/**
 * What the Teams and Slack destinations share: failed and aborted reloads whose kind is switched
 * on, a rate limit per task (one message per task per `rateLimit` seconds) inside the
 * destination's budget of alerts per minute, the title rendered from `basicMsgTemplate` with
 * the fields escaped for the service's markup (chat-title.ts), the `formatted` message from the
 * operator's template file with the basic message as the fallback when the file cannot be read,
 * rendered or used (logged, never lost), and one post with a time limit.
 */
import type { Logger } from "../ports.ts";
import {
  type AlertDestination,
  AlertSendError,
  type AlertSendResult,
} from "../task-events/alert-destination.ts";
import type { TaskAlert } from "../task-events/task-alert.ts";
import type { AlertKind } from "../task-events/task-kinds.ts";
import { type TemplateFields, type TemplateLinks, templateFields } from "../task-events/template-fields.ts";
import { admitAlert, type DestinationBudget } from "./alert-budget.ts";
import { type AlertRateLimit, createAlertRateLimit } from "./alert-rate-limit.ts";
import { chatFields } from "./chat-log-text.ts";
import { type ChatTitle, fallbackChatTitle, renderChatTitle } from "./chat-title.ts";
import type { JsonPoster } from "./json-poster.ts";
import { renderJsonTemplate } from "./json-template.ts";

export type ChatKind = "reloadTaskFailure" | "reloadTaskAborted";

export interface ChatKindSettings {
  readonly enable: boolean;
  readonly webhookURL: string;
  readonly messageType: "basic" | "formatted";
  readonly basicMsgTemplate: string;
  readonly rateLimit: number;
  readonly headScriptLogLines: number;
  readonly tailScriptLogLines: number;
  readonly templateFile: string;
}

export interface ChatSettings<K extends ChatKindSettings> {
  readonly enable: boolean;
  readonly timeoutSeconds: number;
  readonly reloadTaskFailure: K;
  readonly reloadTaskAborted: K;
}

export interface ChatDestinationDeps {
  readonly poster: JsonPoster;
  readonly readTemplate: (path: string) => Promise<string>;
  readonly logger: Logger;
  readonly links: TemplateLinks;
  readonly rateLimit?: AlertRateLimit;
  readonly budget?: DestinationBudget | undefined;
  readonly timeZone?: string;
}

export interface ChatFormat<K extends ChatKindSettings> {
  readonly name: string;
  /** Escapes data for the service's markup (chat-markup.ts). */
  escape(text: string): string;
  basic(fields: TemplateFields, title: ChatTitle, kind: ChatKind, settings: K): unknown;
  /** The parsed template output as the service's message; throws with the reason when it is not one. */
  formatted(parsed: unknown, settings: K): unknown;
}

const isChatKind = (kind: AlertKind): kind is ChatKind =>
  kind === "reloadTaskFailure" || kind === "reloadTaskAborted";

const plainTitle = (kind: ChatKind, fields: Pick<TemplateFields, "taskName">) =>
  `Qlik Sense reload ${kind === "reloadTaskFailure" ? "failed" : "aborted"}: "${fields.taskName}"`;

export function createChatDestination<K extends ChatKindSettings>(
  config: ChatSettings<K>,
  format: ChatFormat<K>,
  deps: ChatDestinationDeps,
): AlertDestination {
  const rateLimit = deps.rateLimit ?? createAlertRateLimit();
  const logger = deps.logger;

  /** The title from `basicMsgTemplate`, or the plain one when the template cannot be used (logged). */
  function titleOf(kind: ChatKind, settings: K, fields: TemplateFields, context: object): ChatTitle {
    const fallback = (shown: TemplateFields) => plainTitle(kind, shown);
    try {
      return renderChatTitle(settings.basicMsgTemplate, fields, format.escape, fallback);
    } catch (error) {
      logger.warn(`${format.name} alert: title template not used`, {
        ...context,
        problem: (error as Error).message,
      });
      return fallbackChatTitle(fields, format.escape, fallback);
    }
  }

  async function message(
    kind: ChatKind,
    settings: K,
    fields: TemplateFields,
    context: object,
  ): Promise<unknown> {
    if (settings.messageType === "formatted") {
      try {
        const source = await deps.readTemplate(settings.templateFile);
        return format.formatted(renderJsonTemplate(source, fields, format.escape), settings);
      } catch (error) {
        logger.warn(`${format.name} alert: template not used, the basic message is sent instead`, {
          ...context,
          templateFile: settings.templateFile,
          problem: (error as Error).message,
        });
      }
    }
    return format.basic(fields, titleOf(kind, settings, fields, context), kind, settings);
  }

  return {
    name: format.name,
    handles: (kind) => config.enable && isChatKind(kind) && config[kind].enable,
    async send(alert: TaskAlert): Promise<AlertSendResult> {
      if (!isChatKind(alert.kind))
        return { outcome: "skipped", reason: `${format.name} has no ${alert.kind} alerts` };
      const kind = alert.kind;
      const settings = config[kind];
      const refused = admitAlert(deps.budget, () =>
        rateLimit.take(`${kind}|${alert.event.taskId}`, settings.rateLimit)
          ? undefined
          : { outcome: "suppressed", reason: `this task had an alert within ${settings.rateLimit} s` },
      );
      if (refused !== undefined) return refused;
      const context = { kind, taskId: alert.event.taskId, taskName: alert.event.taskName };
      const fields = chatFields(
        templateFields(
          alert,
          deps.links,
          { head: settings.headScriptLogLines, tail: settings.tailScriptLogLines },
          deps.timeZone === undefined ? {} : { timeZone: deps.timeZone },
        ),
      );
      const body = await message(kind, settings, fields, context);
      try {
        await deps.poster.post(settings.webhookURL, body, config.timeoutSeconds * 1000);
      } catch (error) {
        throw new AlertSendError(`${format.name} alert not posted: ${(error as Error).message}`, {
          cause: error,
        });
      }
      return { outcome: "sent", messages: 1 };
    },
  };
}
