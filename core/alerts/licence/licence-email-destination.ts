/**
 * The server licence's expiry by email (`emailNotification.serverLicenseExpiry`): one email per
 * recipient of `recipients`, each left out when it had the licence alert within `rateLimit`
 * seconds (one a day by default: the monitor runs every 6 hours). The body is the operator's
 * template when `htmlTemplateFile` names one (found as the task alerts find theirs), the built-in
 * one otherwise; a template that cannot be used is logged and a plain message goes instead. A
 * recipient whose email failed makes the send fail after the others were sent.
 */
import type { EmailNotificationConfig } from "../../config/schema/config.ts";
import type { LicenceExpiryAlert } from "../../licences/license-expiry-alert.ts";
import { redactText } from "../../logging/redact.ts";
import type { Logger } from "../../ports.ts";
import { addressKey } from "../../shared/email-address.ts";
import { AlertSendError, type AlertSendResult } from "../../task-events/alert-destination.ts";
import { admitAlert, type DestinationBudget } from "../alert-budget.ts";
import type { AlertRateLimit } from "../alert-rate-limit.ts";
import { templateCandidates } from "../email-destination.ts";
import type { BodyTemplate } from "../email-message.ts";
import type { EmailSender } from "../email-sender.ts";
import { LICENCE_EXPIRY_KIND, type LicenceLinks, licenceTemplateFields } from "./licence-alert-fields.ts";
import type { LicenceDestination } from "./licence-destination.ts";
import { licenceEmailContent } from "./licence-email-content.ts";

export interface LicenceEmailDeps {
  readonly sender: EmailSender;
  readonly readTemplate: (path: string) => Promise<string>;
  readonly logger: Logger;
  readonly links: LicenceLinks;
  readonly hostName: string;
  readonly rateLimit: AlertRateLimit;
  /** The destination's budget of alerts per minute, shared with its task alerts. */
  readonly budget?: DestinationBudget | undefined;
}

type Settings = EmailNotificationConfig["serverLicenseExpiry"];

async function bodyTemplate(settings: Settings, deps: LicenceEmailDeps): Promise<BodyTemplate> {
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

export function createLicenceEmailDestination(
  settings: Settings,
  deps: LicenceEmailDeps,
): LicenceDestination<LicenceExpiryAlert> {
  const { logger, rateLimit } = deps;
  return {
    name: "email",
    kind: LICENCE_EXPIRY_KIND,
    async send(alert) {
      if (settings.recipients.length === 0) return { outcome: "skipped", reason: "no recipient" };
      let allowed: string[] = [];
      const refused = admitAlert(deps.budget, () => {
        allowed = settings.recipients.filter((to) =>
          rateLimit.take(`email|license-alert|${addressKey(to)}`, settings.rateLimit),
        );
        return allowed.length > 0
          ? undefined
          : {
              outcome: "suppressed",
              reason: `every recipient had the licence alert within ${settings.rateLimit} s`,
            };
      });
      if (refused !== undefined) return refused;
      const fields = licenceTemplateFields(alert, deps.links, deps.hostName);
      const { content, problems } = licenceEmailContent(
        fields,
        settings.subject,
        await bodyTemplate(settings, deps),
      );
      for (const problem of problems)
        logger.warn("Licence alert email: template not used, a plain message is sent instead", { problem });
      const results = await Promise.allSettled(
        allowed.map((to) =>
          deps.sender.send({ from: settings.fromAddress, to, priority: settings.priority, ...content }),
        ),
      );
      return emailResult(results, settings.recipients.length - allowed.length);
    },
  };
}

function emailResult(results: PromiseSettledResult<void>[], suppressed: number): AlertSendResult {
  const failures = results.filter((result) => result.status === "rejected");
  if (failures.length > 0) {
    const first = redactText(String((failures[0]?.reason as Error)?.message ?? failures[0]?.reason));
    throw new AlertSendError(
      `${failures.length} of ${results.length} licence alert emails failed (${results.length - failures.length} sent): ${first}`,
      { cause: failures[0]?.reason },
    );
  }
  return { outcome: "sent", messages: results.length, ...(suppressed > 0 ? { suppressed } : {}) };
}
