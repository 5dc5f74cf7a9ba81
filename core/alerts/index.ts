/**
 * The alerting module: what every other module and the local process may use of it. An alert
 * is one of the kinds of types.ts (a reload-task run, the server licence's expiry and status, a
 * Qlik Cloud reload, a Windows service's change of state);
 * its producers (core/task-events/, the licence monitor) make one and hand it to a dispatcher
 * (dispatch.ts), which sends it to every destination that takes its kind: one per channel
 * (alert-channels.ts: email/, chat/ for Teams and Slack, webhook/, obs-platform/), each holding
 * the messages of every kind side by side. The channels' ports (EmailClient, ChatWebhookClient,
 * WebhookClient) are implemented under core/adapters/.
 */

export { createAlertAdmission } from "./admission.ts";
export { type AlertBudget, createAlertBudget, type DestinationBudget } from "./alert-budget.ts";
export { alertBudgetLimits } from "./alert-budget-limits.ts";
export {
  ALERT_CHANNELS,
  type AlertChannel,
  type AlertChannelDeps,
  type AlertChannelsConfig,
  type AlertClients,
  buildAlertDestinations,
} from "./alert-channels.ts";
export { type AlertRateLimit, createAlertRateLimit } from "./alert-rate-limit.ts";
export { AlertTemplateError, renderAlertTemplate } from "./alert-template.ts";
export type { AlertLinks, AlertView } from "./alert-view.ts";
export { chatFields } from "./chat/chat-log-text.ts";
export type { ChatWebhookClient } from "./chat/chat-webhook-client.ts";
export { taskSlackMessage, taskTeamsCard } from "./chat/task-chat.ts";
export {
  CLOUD_RELOAD_ALERT_KINDS,
  CLOUD_RELOAD_BLOCKS,
  type CloudReloadAlert,
  type CloudReloadAlertKind,
  type CloudRunFacts,
  type CloudTenantInfo,
  type CloudUser,
  isCloudReloadAlertKind,
} from "./cloud-reload-alert.ts";
export {
  type CloudReloadTemplateFields,
  cloudReloadTemplateFields,
  tenantHostOf,
} from "./cloud-reload-fields.ts";
export {
  type AlertDestinationTotals,
  type AlertDispatcher,
  type AlertDispatcherDeps,
  addToTotals,
  createAlertDispatcher,
  type DispatchAlert,
  emptyTotals,
  totalsKey,
} from "./dispatch.ts";
export type { EmailClient, OutgoingEmail } from "./email/email-client.ts";
export { licenceEmail } from "./email/licence-email.ts";
export { taskEmailContent } from "./email/task-email.ts";
export {
  LICENCE_EXPIRY_KIND,
  LICENCE_STATUS_KIND,
  type LicenceExpiryAlert,
  type LicenceStatusAlert,
} from "./licence-alert.ts";
export { type LicenceTemplateFields, licenceSentence, licenceTemplateFields } from "./licence-fields.ts";
export { OBS_PLATFORM_ALERT_DESTINATION } from "./obs-platform/obs-platform-alert-destination.ts";
export {
  isServiceStateAlertKind,
  SERVICE_STATE_ALERT_KINDS,
  type ServiceStateAlert,
  type ServiceStateAlertKind,
  serviceStateKind,
} from "./service-state-alert.ts";
export {
  type ServiceTemplateFields,
  serviceSentence,
  serviceTemplateFields,
} from "./service-state-fields.ts";
export { createSharedAlertRateLimit, type SharedAlertRateLimit } from "./shared-alert-rate-limit.ts";
export {
  type AppInfo,
  type AppOwner,
  available,
  type CustomPropertyValue,
  type Enriched,
  type ExecutionDetail,
  type ExecutionInfo,
  foundValue,
  headLines,
  isTaskAlertKind,
  notAvailable,
  type ScriptLog,
  TASK_ALERT_KINDS,
  TASK_TYPES,
  type TaskAlert,
  type TaskAlertKind,
  type TaskInfo,
  type TaskType,
  type TaskTypeName,
  tailLines,
  taskTypeOf,
  unavailableParts,
} from "./task-alert.ts";
export { TASK_EVENT_KINDS, type TaskEvent, type TaskEventKind } from "./task-event.ts";
export {
  type LocalTimes,
  localTimeFormatter,
  NOT_AVAILABLE,
  prefixedTimes,
  splitDuration,
  type TaskTemplateFields,
  taskTemplateFields,
} from "./task-fields.ts";
export {
  type Admission,
  type Alert,
  type AlertAdmission,
  type AlertDestination,
  type AlertKind,
  type AlertOutcome,
  AlertSendError,
  type AlertSendResult,
} from "./types.ts";
export type { WebhookCall, WebhookClient, WebhookMethod, WebhookValue } from "./webhook/webhook-client.ts";
