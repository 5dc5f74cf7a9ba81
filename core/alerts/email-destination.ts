/**
 * The email destination: for a failed, aborted or successful reload (or a distribute or preload
 * task's failure or success) whose kind is switched on,
 * decides the recipients (email-recipients.ts), leaves out each recipient that had this task's
 * alert within `rateLimit` seconds (the key is the task and the recipient), renders the message
 * once (email-message.ts, with its fallbacks) and sends one email per recipient. The
 * destination's budget of alerts per minute counts one per alert, whatever its recipients.
 *
 * Every problem is told: a refused address, an owner that could not be looked up and a template
 * that could not be used are logged (the email still goes); a recipient whose email failed makes
 * the send fail after the others were sent, with the count and the first reason.
 */
import { join } from "node:path";
import type { EmailNotificationConfig } from "../config/schema/config.ts";
import { redactText } from "../logging/redact.ts";
import type { Logger } from "../ports.ts";
import { addressKey } from "../shared/email-address.ts";
import {
  type AlertDestination,
  AlertSendError,
  type AlertSendResult,
} from "../task-events/alert-destination.ts";
import type { TaskAlert } from "../task-events/task-alert.ts";
import type { AlertKind } from "../task-events/task-kinds.ts";
import { type TemplateLinks, templateFields } from "../task-events/template-fields.ts";
import { admitAlert, type DestinationBudget } from "./alert-budget.ts";
import { type AlertRateLimit, createAlertRateLimit } from "./alert-rate-limit.ts";
import { type BodyTemplate, EMAIL_KINDS, type EmailKind, emailContent } from "./email-message.ts";
import { emailRecipients } from "./email-recipients.ts";
import type { EmailSender } from "./email-sender.ts";

export interface EmailDestinationDeps {
  readonly sender: EmailSender;
  /** Reads a template file (UTF-8); rejects when it cannot. */
  readonly readTemplate: (path: string) => Promise<string>;
  readonly logger: Logger;
  readonly links: TemplateLinks;
  readonly rateLimit?: AlertRateLimit;
  readonly budget?: DestinationBudget | undefined;
  /** IANA time zone of the local times in messages; the process's own by default. */
  readonly timeZone?: string;
}

const TEMPLATE_SUFFIX = ".handlebars";

/**
 * The files tried for `htmlTemplateFile`: the name as written, with `.handlebars` added, and with
 * `-qseow` added, because Butler's sample configuration names its shipped files without the
 * `-qseow` they carry on disk.
 */
export function templateCandidates(directory: string, file: string): string[] {
  const names = file.endsWith(TEMPLATE_SUFFIX)
    ? [file]
    : [
        file,
        `${file}${TEMPLATE_SUFFIX}`,
        ...(file.endsWith("-qseow") ? [] : [`${file}-qseow${TEMPLATE_SUFFIX}`]),
      ];
  return names.map((name) => join(directory, name));
}

/** Lines of the script log shown: reload kinds set them; distribute and preload tasks have no log. */
function scriptLogCounts(settings: object): { head: number; tail: number } {
  const counts = settings as { headScriptLogLines?: number; tailScriptLogLines?: number };
  return { head: counts.headScriptLogLines ?? 0, tail: counts.tailScriptLogLines ?? 0 };
}

export function createEmailDestination(
  config: EmailNotificationConfig,
  deps: EmailDestinationDeps,
): AlertDestination {
  const rateLimit = deps.rateLimit ?? createAlertRateLimit();
  const logger = deps.logger;
  const isEmailKind = (kind: AlertKind): kind is EmailKind =>
    (EMAIL_KINDS as readonly string[]).includes(kind);

  async function bodyTemplate(kind: EmailKind): Promise<BodyTemplate> {
    const { bodyFileDirectory, htmlTemplateFile } = config[kind];
    if (htmlTemplateFile.trim() === "") return undefined;
    const candidates = templateCandidates(bodyFileDirectory, htmlTemplateFile.trim());
    for (const path of candidates) {
      try {
        return { source: await deps.readTemplate(path) };
      } catch {
        // The next candidate; none readable is reported below.
      }
    }
    return { error: `template file not found or not readable (tried ${candidates.join(", ")})` };
  }

  return {
    name: "email",
    handles: (kind) => config.enable && isEmailKind(kind) && config[kind].enable,
    async send(alert: TaskAlert): Promise<AlertSendResult> {
      if (!isEmailKind(alert.kind))
        return { outcome: "skipped", reason: `email has no ${alert.kind} alerts` };
      const kind = alert.kind;
      const settings = config[kind];
      const context = { kind, taskId: alert.event.taskId, taskName: alert.event.taskName };
      const decision = emailRecipients(alert, settings);
      for (const refused of decision.refused)
        logger.warn("Alert email: not an email address, left out", { ...context, ...refused });
      for (const note of decision.notes) logger.warn(`Alert email: ${note}`, context);
      if (decision.recipients.length === 0) return { outcome: "skipped", reason: "no recipient" };

      let allowed: string[] = [];
      const refused = admitAlert(deps.budget, () => {
        allowed = decision.recipients.filter((to) =>
          rateLimit.take(`${alert.event.taskId}|${addressKey(to)}`, settings.rateLimit),
        );
        return allowed.length > 0
          ? undefined
          : {
              outcome: "suppressed",
              reason: `every recipient had this task's alert within ${settings.rateLimit} s`,
            };
      });
      if (refused !== undefined) return refused;
      const suppressed = decision.recipients.length - allowed.length;

      const fields = templateFields(
        alert,
        deps.links,
        scriptLogCounts(settings),
        deps.timeZone === undefined ? {} : { timeZone: deps.timeZone },
      );
      const { content, problems } = emailContent(kind, fields, settings.subject, await bodyTemplate(kind));
      for (const problem of problems)
        logger.warn("Alert email: template not used, a plain message is sent instead", {
          ...context,
          problem,
        });

      const results = await Promise.allSettled(
        allowed.map((to) =>
          deps.sender.send({ from: settings.fromAddress, to, priority: settings.priority, ...content }),
        ),
      );
      const failures = results.filter((result) => result.status === "rejected");
      if (failures.length > 0) {
        const first = redactText(String((failures[0]?.reason as Error)?.message ?? failures[0]?.reason));
        throw new AlertSendError(
          `${failures.length} of ${allowed.length} alert emails failed (${allowed.length - failures.length} sent): ${first}`,
          { cause: failures[0]?.reason },
        );
      }
      return { outcome: "sent", messages: allowed.length, ...(suppressed > 0 ? { suppressed } : {}) };
    },
  };
}
