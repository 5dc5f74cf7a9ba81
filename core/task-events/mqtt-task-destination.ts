/**
 * The broker's record of task runs (task-mqtt-messages.ts), published on the process's one broker
 * connection: not an alert channel, as the records of every run belong to task events, but sent
 * through the same dispatcher, so that each is counted and shown as the alert channels are. Every
 * message of a run is published; when one fails (the broker is away, it did not acknowledge), the
 * send fails with the topic and reason, and the dispatcher counts and shows it. A Qlik Cloud
 * reload's alert (cloud-mqtt-messages.ts) is published the same way, on the same topics, by the
 * destination the Qlik Cloud inputs hand their runs to.
 */

import {
  type AlertDestination,
  AlertSendError,
  type CloudReloadAlert,
  isCloudReloadAlertKind,
  type TaskAlert,
} from "../alerts/index.ts";
import type { BrokerClient } from "../ports.ts";
import { cloudMqttMessages, publishesCloudMessages } from "./cloud-mqtt-messages.ts";
import { publishesTaskMessages, type TaskMqttConfig, taskMqttMessages } from "./task-mqtt-messages.ts";

/** The destination's name in metrics, logs and the status page. */
export const MQTT_ALERT_DESTINATION = "mqtt";

export function createMqttTaskDestination(options: {
  readonly config: TaskMqttConfig;
  readonly broker: BrokerClient;
}): AlertDestination<TaskAlert | CloudReloadAlert> {
  const { config, broker } = options;
  return {
    name: MQTT_ALERT_DESTINATION,
    handles: (kind) => publishesTaskMessages(kind, config) || publishesCloudMessages(kind, config),
    async send(alert) {
      const messages = isCloudReloadAlertKind(alert.kind)
        ? cloudMqttMessages(alert as CloudReloadAlert, config)
        : taskMqttMessages(alert as TaskAlert, config);
      if (messages.length === 0)
        return { outcome: "skipped", reason: `${alert.kind} has no broker messages` };
      const results = await Promise.allSettled(
        messages.map(({ topic, payload }) => broker.publish(topic, payload)),
      );
      const failed = results.flatMap((result, index) =>
        result.status === "rejected"
          ? [{ topic: messages[index]?.topic, error: result.reason as unknown }]
          : [],
      );
      const first = failed[0];
      if (first !== undefined) {
        const reason = first.error instanceof Error ? first.error.message : String(first.error);
        throw new AlertSendError(
          `${failed.length} of ${messages.length} broker messages not published (${first.topic}: ${reason})`,
          { cause: first.error },
        );
      }
      return { outcome: "sent", messages: messages.length };
    },
  };
}
