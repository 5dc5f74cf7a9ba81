/**
 * The alert budget of each destination (alert-budget.ts) as the configuration sets it: every
 * message destination's section has its own `maxAlertsPerMinute`, 0 for no budget.
 */
import type { Config } from "../config/index.ts";
import { OBS_PLATFORM_ALERT_DESTINATION } from "./obs-platform/obs-platform-alert-destination.ts";

/** Alerts per minute by destination name, from each section's `maxAlertsPerMinute` (0: no budget). */
export function alertBudgetLimits(
  config: Pick<
    Config,
    "emailNotification" | "teamsNotification" | "slackNotification" | "webhookNotification" | "incidentTool"
  >,
): Readonly<Record<string, number>> {
  return {
    email: config.emailNotification.maxAlertsPerMinute,
    teams: config.teamsNotification.maxAlertsPerMinute,
    slack: config.slackNotification.maxAlertsPerMinute,
    webhook: config.webhookNotification.maxAlertsPerMinute,
    [OBS_PLATFORM_ALERT_DESTINATION]: config.incidentTool.newRelic.maxAlertsPerMinute,
  };
}
