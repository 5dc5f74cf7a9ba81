/**
 * The server licence's expiry in Teams or Slack (`serverLicenseExpiry` of their sections): at
 * most one post per `rateLimit` seconds (one a day by default), the title rendered from
 * `basicMsgTemplate` with the fields escaped for the service's markup (chat-title.ts), the `formatted` message from the operator's template file with the basic
 * message as the fallback when the file cannot be read, rendered or used (logged, never lost),
 * and one post with the section's time limit.
 */
import type { LicenceExpiryAlert } from "../../licences/license-expiry-alert.ts";
import type { Logger } from "../../ports.ts";
import { AlertSendError } from "../../task-events/alert-destination.ts";
import { admitAlert, type DestinationBudget } from "../alert-budget.ts";
import type { AlertRateLimit } from "../alert-rate-limit.ts";
import { type ChatTitle, fallbackChatTitle, renderChatTitle } from "../chat-title.ts";
import type { JsonPoster } from "../json-poster.ts";
import { renderJsonTemplate } from "../json-template.ts";
import {
  LICENCE_EXPIRY_KIND,
  type LicenceLinks,
  type LicenceTemplateFields,
  licenceTemplateFields,
} from "./licence-alert-fields.ts";
import type { LicenceDestination } from "./licence-destination.ts";

export interface LicenceChatSettings {
  readonly webhookURL: string;
  readonly messageType: "basic" | "formatted";
  readonly basicMsgTemplate: string;
  readonly rateLimit: number;
  readonly templateFile: string;
}

export interface LicenceChatFormat {
  readonly name: string;
  /** Escapes data for the service's markup (chat-markup.ts). */
  escape(text: string): string;
  basic(fields: LicenceTemplateFields, title: ChatTitle): unknown;
  /** The parsed template output as the service's message; throws with the reason when it is not one. */
  formatted(parsed: unknown): unknown;
}

export interface LicenceChatDeps {
  readonly poster: JsonPoster;
  readonly readTemplate: (path: string) => Promise<string>;
  readonly logger: Logger;
  readonly links: LicenceLinks;
  readonly hostName: string;
  readonly rateLimit: AlertRateLimit;
  /** The destination's budget of alerts per minute, shared with its task alerts. */
  readonly budget?: DestinationBudget | undefined;
  readonly timeoutSeconds: number;
}

export function createLicenceChatDestination(
  settings: LicenceChatSettings,
  format: LicenceChatFormat,
  deps: LicenceChatDeps,
): LicenceDestination<LicenceExpiryAlert> {
  const { logger } = deps;

  function title(fields: LicenceTemplateFields): ChatTitle {
    const fallback = (shown: LicenceTemplateFields) => shown.message;
    try {
      return renderChatTitle(settings.basicMsgTemplate, fields, format.escape, fallback);
    } catch (error) {
      logger.warn(`${format.name} licence alert: title template not used`, {
        problem: (error as Error).message,
      });
      return fallbackChatTitle(fields, format.escape, fallback);
    }
  }

  async function message(fields: LicenceTemplateFields): Promise<unknown> {
    if (settings.messageType === "formatted") {
      try {
        const source = await deps.readTemplate(settings.templateFile);
        return format.formatted(renderJsonTemplate(source, fields, format.escape));
      } catch (error) {
        logger.warn(`${format.name} licence alert: template not used, the basic message is sent instead`, {
          templateFile: settings.templateFile,
          problem: (error as Error).message,
        });
      }
    }
    return format.basic(fields, title(fields));
  }

  return {
    name: format.name,
    kind: LICENCE_EXPIRY_KIND,
    async send(alert) {
      const refused = admitAlert(deps.budget, () =>
        deps.rateLimit.take(`${format.name}|license-alert`, settings.rateLimit)
          ? undefined
          : { outcome: "suppressed", reason: `the licence had an alert within ${settings.rateLimit} s` },
      );
      if (refused !== undefined) return refused;
      const body = await message(licenceTemplateFields(alert, deps.links, deps.hostName));
      try {
        await deps.poster.post(settings.webhookURL, body, deps.timeoutSeconds * 1000);
      } catch (error) {
        throw new AlertSendError(`${format.name} licence alert not posted: ${(error as Error).message}`, {
          cause: error,
        });
      }
      return { outcome: "sent", messages: 1 };
    },
  };
}
