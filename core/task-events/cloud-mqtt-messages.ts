/**
 * The broker messages of a failed or canceled Qlik Cloud reload, on the topics of the site's
 * failed and aborted reloads (task-mqtt-messages.ts) and under the same switches
 * (`taskEvents.sendToMQTT`), so a subscriber written for the site's reloads hears the cloud's
 * too: the app's name as plain text on `taskFailureTopic` / `taskAbortedTopic` (a cloud reload
 * has no task, and the app is what it reloads), and when `taskFailureSendFull` /
 * `taskAbortedSendFull` is on, a JSON document on the full topic with the site's keys where they
 * mean something for a cloud run (`hostName` the tenant's host, `user` who reloaded, `taskName`
 * and `appName` the app's name, `appId`, `logTimeStamp` when it finished, `executionId` the
 * reload's id, `logMessage` the error) and the cloud's own (`tenant`, `tenantUrl`, `spaceName`,
 * `status`, `errorCode`). A part the tenant could not tell reads "not available"; the message
 * still goes out.
 */
import {
  type CloudReloadAlert,
  cloudReloadTemplateFields,
  isCloudReloadAlertKind,
  tenantHostOf,
} from "../alerts/index.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { TaskMqttConfig } from "./task-mqtt-messages.ts";

/** True when `kind` is a cloud reload's and the broker messages of reloads are switched on. */
export function publishesCloudMessages(kind: string, config: TaskMqttConfig): boolean {
  return config.enable && isCloudReloadAlertKind(kind);
}

/** The messages of `alert`, short one first. */
export function cloudMqttMessages(alert: CloudReloadAlert, config: TaskMqttConfig): BrokerMessage[] {
  if (!publishesCloudMessages(alert.kind, config)) return [];
  const aborted = alert.kind === "qlikCloudReloadAborted";
  const fields = cloudReloadTemplateFields(alert, { head: 0, tail: 0 });
  const taskName = alert.app.available ? fields.appName : fields.appId;
  const messages: BrokerMessage[] = [
    { topic: aborted ? config.taskAbortedTopic : config.taskFailureTopic, payload: taskName },
  ];
  if (aborted ? config.taskAbortedSendFull : config.taskFailureSendFull) {
    const payload = {
      hostName: tenantHostOf(fields.tenantUrl),
      user: fields.reloadedBy,
      taskName,
      appName: fields.appName,
      appId: fields.appId,
      logTimeStamp: fields.finishedAt,
      executionId: fields.reloadId,
      logMessage: fields.logMessage,
      tenant: fields.tenantName,
      tenantUrl: fields.tenantUrl,
      spaceName: fields.spaceName,
      status: fields.status,
      errorCode: fields.errorCode,
    };
    messages.push({
      topic: aborted ? config.taskAbortedFullTopic : config.taskFailureFullTopic,
      payload: JSON.stringify(payload),
    });
  }
  return messages;
}
