/**
 * The broker messages of a failed or aborted reload, on the topics and with the payloads Butler
 * published, so that subscribers written for it keep working: the task's name as plain text on
 * `taskFailureTopic` / `taskAbortedTopic`, and when `taskFailureSendFull` / `taskAbortedSendFull`
 * is on, a JSON document of the event with the app's and task's tags, custom properties and
 * metadata on `taskFailureFullTopic` / `taskAbortedFullTopic` (the aborted one also with the
 * app's metadata). A part the repository could not tell is `null` (metadata) or empty (tags,
 * custom properties): the message still goes out.
 */

import { foundValue, type TaskAlert } from "../alerts/index.ts";
import type { Config } from "../config/index.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";

export type TaskMqttConfig = Config["taskEvents"]["sendToMQTT"];

/** True when `kind` has broker messages and they are switched on. */
export function publishesTaskMessages(kind: string, config: TaskMqttConfig): boolean {
  return config.enable && (kind === "reloadTaskFailure" || kind === "reloadTaskAborted");
}

/** The messages of `alert`, short one first; none for a kind that has no messages. */
export function taskMqttMessages(alert: TaskAlert, config: TaskMqttConfig): BrokerMessage[] {
  if (!publishesTaskMessages(alert.kind, config)) return [];
  const aborted = alert.kind === "reloadTaskAborted";
  const task = foundValue(alert.task);
  const taskName = task?.name || alert.event.taskName;
  const messages: BrokerMessage[] = [
    { topic: aborted ? config.taskAbortedTopic : config.taskFailureTopic, payload: taskName },
  ];
  if (aborted ? config.taskAbortedSendFull : config.taskFailureSendFull) {
    messages.push({
      topic: aborted ? config.taskAbortedFullTopic : config.taskFailureFullTopic,
      payload: JSON.stringify(fullPayload(alert, taskName, aborted)),
    });
  }
  return messages;
}

function fullPayload(alert: TaskAlert, taskName: string, aborted: boolean): Record<string, unknown> {
  const { event } = alert;
  const task = foundValue(alert.task);
  const app = foundValue(alert.app);
  return {
    hostName: event.hostName,
    user: event.user,
    taskName,
    taskId: event.taskId,
    appName: app?.name || event.appName,
    appId: event.appId || (app?.id ?? ""),
    logTimeStamp: event.logTimeStamp,
    logLevel: event.logLevel,
    executionId: event.executionId,
    logMessage: event.logMessage,
    qs_appTags: app?.tags ?? [],
    qs_appCustomProperties: app?.customProperties ?? [],
    qs_taskTags: task?.tags ?? [],
    qs_taskCustomProperties: task?.customProperties ?? [],
    qs_taskMetadata: task ?? null,
    ...(aborted ? { qs_appMetadata: app ?? null } : {}),
  };
}
