/** Alert settings as the configuration parser makes them (every default filled), from a few overrides. */
import * as v from "valibot";
import { emailNotificationSchema } from "../../core/config/schema/email-notification.ts";
import { newRelicSchema } from "../../core/config/schema/incident-tool.ts";
import { slackNotificationSchema } from "../../core/config/schema/slack-notification.ts";
import { teamsNotificationSchema } from "../../core/config/schema/teams-notification.ts";
import { webhookNotificationSchema } from "../../core/config/schema/webhook-notification.ts";

export const emailConfig = (input: unknown) => v.parse(emailNotificationSchema, input);
export const teamsConfig = (input: unknown) => v.parse(teamsNotificationSchema, input);
export const slackConfig = (input: unknown) => v.parse(slackNotificationSchema, input);
export const webhookConfig = (input: unknown) => v.parse(webhookNotificationSchema, input);
export const newRelicConfig = (input: unknown) => v.parse(newRelicSchema, input);
