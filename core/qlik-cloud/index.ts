/**
 * The Qlik Cloud module's only door: code outside core/qlik-cloud/ imports this file and nothing
 * else of the module, so its files can be rearranged without touching their users. It gives what
 * the Qlik Cloud inputs are made of: a tenant's reload run (one value whatever input found it),
 * the webhook receiver with the `Qlik-Signature` check, the polling of a tenant's APIs, the inbox
 * and intake that take each run durably and once, the handlers a run is handed to (its log line,
 * its point, its alert), the tenant client's error and call events, the inputs' metrics and
 * status, and the reading of the tenants' licences.
 */
export { type CloudInputMonitor, createCloudInputMonitor } from "./cloud-input-monitor.ts";
export { type CloudReloadRun, HANDLED_EVENT_TYPES } from "./cloud-reload-run.ts";
export { type CloudRunInbox, createCloudRunInbox, SEEN_FOR_MS } from "./cloud-run-inbox.ts";
export { type CloudRunIntake, createCloudRunIntake, type HandOnOutcome } from "./cloud-run-intake.ts";
export {
  type CloudRunKey,
  type CloudRunMessageReading,
  cloudRunMessage,
  readCloudRunMessage,
} from "./cloud-run-message.ts";
export {
  type CloudRunOutputsDeps,
  type CloudTenantOutputs,
  createCloudRunOutputs,
} from "./cloud-run-outputs.ts";
export { writesCloudRunPoints } from "./cloud-run-points.ts";
export {
  LICENCES_CURSOR,
  type LicenceReadingOutcome,
  licencesDue,
  readLicencesWhenDue,
} from "./licences-when-due.ts";
export { createCloudRunLog } from "./log-cloud-run.ts";
export { qlikErrorOf, TenantApiError } from "./tenant-api-error.ts";
export { IGNORED_CALL_EVENTS, type TenantCallEvents } from "./tenant-call-events.ts";
export {
  createTenantLicences,
  type LicensedTenant,
  type TenantLicenceStatus,
  type TenantLicences,
} from "./tenant-licences.ts";
export {
  createTenantPollRound,
  firstLookBackSince,
  POLLED_INPUTS,
  startTenantPolling,
} from "./tenant-polling.ts";
export {
  createWebhookReceiver,
  type WebhookOutcome,
  type WebhookReceiver,
  type WebhookTenant,
} from "./webhook-receiver.ts";
export { SIGNATURE_HEADER, signWebhookBody } from "./webhook-signature.ts";
