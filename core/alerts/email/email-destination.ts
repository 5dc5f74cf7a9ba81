/**
 * The email destination, one for every kind of alert it sends (KINDS: the reload-task kinds of
 * task-email.ts, the server licence's expiry of licence-email.ts): for an alert whose kind is
 * switched on, it decides the recipients, leaves out each recipient that had the alert within
 * the kind's `rateLimit` seconds (the dispatcher's admission, one key per recipient), renders the
 * message once (email-content.ts, with its fallbacks) and sends one email per recipient. The
 * destination's budget of alerts per minute counts one per alert, whatever its recipients.
 *
 * Every problem is told: a refused address, an owner that could not be looked up and a template
 * that could not be used are logged (the email still goes); a recipient whose email failed makes
 * the send fail after the others were sent, with the count and the first reason.
 */
import { join } from "node:path";
import type { EmailNotificationConfig } from "../../config/index.ts";
import { redactText } from "../../logging/index.ts";
import type { Logger } from "../../ports.ts";
import type { AlertView } from "../alert-view.ts";
import { type Alert, type AlertDestination, AlertSendError, type AlertSendResult } from "../types.ts";
import { cloudReloadEmail } from "./cloud-reload-email.ts";
import type { EmailClient } from "./email-client.ts";
import type { BodyTemplate } from "./email-content.ts";
import type { EmailKindSettings, EmailMessages } from "./email-messages.ts";
import { licenceEmail } from "./licence-email.ts";
import { serviceStateEmail } from "./service-state-email.ts";
import { taskEmail } from "./task-email.ts";

/** The kinds email sends, one line each; each answers only the alerts of the kinds it lists. */
const KINDS = [
  taskEmail,
  licenceEmail,
  cloudReloadEmail,
  serviceStateEmail,
] as unknown as readonly EmailMessages<Alert, EmailKindSettings>[];

export interface EmailDestinationDeps {
  readonly client: EmailClient;
  /** Reads a template file (UTF-8); rejects when it cannot. */
  readonly readTemplate: (path: string) => Promise<string>;
  readonly logger: Logger;
  readonly view: AlertView;
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

/** The operator's body template of a kind's settings: its source, why it cannot be read, or undefined for the built-in one. */
async function bodyTemplate(settings: EmailKindSettings, deps: EmailDestinationDeps): Promise<BodyTemplate> {
  const file = settings.htmlTemplateFile.trim();
  if (file === "") return undefined;
  const candidates = templateCandidates(settings.bodyFileDirectory, file);
  for (const path of candidates) {
    try {
      return { source: await deps.readTemplate(path) };
    } catch {
      // The next candidate; none readable is reported below.
    }
  }
  return { error: `template file not found or not readable (tried ${candidates.join(", ")})` };
}

function sent(results: PromiseSettledResult<void>[], suppressed: number, plural: string): AlertSendResult {
  const failures = results.filter((result) => result.status === "rejected");
  if (failures.length > 0) {
    const first = redactText(String((failures[0]?.reason as Error)?.message ?? failures[0]?.reason));
    throw new AlertSendError(
      `${failures.length} of ${results.length} ${plural} failed (${results.length - failures.length} sent): ${first}`,
      { cause: failures[0]?.reason },
    );
  }
  return { outcome: "sent", messages: results.length, ...(suppressed > 0 ? { suppressed } : {}) };
}

export function createEmailDestination(
  config: EmailNotificationConfig,
  deps: EmailDestinationDeps,
): AlertDestination {
  const { logger } = deps;
  const messagesOf = (kind: Alert["kind"]) => KINDS.find((messages) => messages.kinds.includes(kind));

  return {
    name: "email",
    handles(kind) {
      const messages = messagesOf(kind);
      return config.enable && messages?.settings(config, kind).enable === true;
    },
    async send(alert, admission) {
      const messages = messagesOf(alert.kind);
      if (messages === undefined) return { outcome: "skipped", reason: `email has no ${alert.kind} alerts` };
      const settings = messages.settings(config, alert.kind);
      const context = messages.context(alert);
      const decision = messages.recipients(alert, settings);
      for (const refused of decision.refused)
        logger.warn(`${messages.label}: not an email address, left out`, { ...context, ...refused });
      for (const note of decision.notes) logger.warn(`${messages.label}: ${note}`, context);
      if (decision.recipients.length === 0) return { outcome: "skipped", reason: "no recipient" };

      const keyOf = (to: string) => messages.rateKey(alert, to);
      const admitted = await admission.admit(
        decision.recipients.map(keyOf),
        settings.rateLimit,
        messages.suppressed(settings),
      );
      if ("refused" in admitted) return admitted.refused;
      const allowed = decision.recipients.filter((to) => admitted.admitted.includes(keyOf(to)));

      const { content, problems } = messages.content(
        alert,
        settings,
        await bodyTemplate(settings, deps),
        deps.view,
      );
      for (const problem of problems)
        logger.warn(`${messages.label}: template not used, a plain message is sent instead`, {
          ...context,
          problem,
        });

      const results = await Promise.allSettled(
        allowed.map((to) =>
          deps.client.send({ from: settings.fromAddress, to, priority: settings.priority, ...content }),
        ),
      );
      return sent(results, decision.recipients.length - allowed.length, messages.plural);
    },
  };
}
