/** Alert settings as the configuration parser makes them (every default filled), from a few overrides. */
import * as v from "valibot";
import { emailNotificationSchema } from "../../core/config/schema/email-notification.ts";
import { newRelicSchema } from "../../core/config/schema/incident-tool.ts";
import { licenseMonitorSchema } from "../../core/config/schema/license-monitor.ts";
import { slackNotificationSchema } from "../../core/config/schema/slack-notification.ts";
import { teamsNotificationSchema } from "../../core/config/schema/teams-notification.ts";
import { webhookNotificationSchema } from "../../core/config/schema/webhook-notification.ts";

export const emailConfig = (input: unknown) => v.parse(emailNotificationSchema, input);
export const teamsConfig = (input: unknown) => v.parse(teamsNotificationSchema, input);
export const slackConfig = (input: unknown) => v.parse(slackNotificationSchema, input);
export const webhookConfig = (input: unknown) => v.parse(webhookNotificationSchema, input);
export const newRelicConfig = (input: unknown) => v.parse(newRelicSchema, input);
export const licenseMonitorConfig = (input: unknown) => v.parse(licenseMonitorSchema, input);

/** The sections the webhook destination reads: the webhooks, and the licence monitor's switches of its licence webhooks. */
export const webhookSections = (webhooks: unknown, licences: unknown = {}) => ({
  webhookNotification: webhookConfig(webhooks),
  licenseMonitor: licenseMonitorConfig(licences),
});
