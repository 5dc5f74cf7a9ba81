/**
 * The task-event listener's status on the broker, as Butler published it to
 * `mqttConfig.taskFailureServerStatusTopic` (`qliksense/butler/task_failure_server`): `start` once
 * the UDP listener listens, `error` when it cannot bind (the start then fails) or its socket fails
 * later (as often as that is logged, once a minute at most). Automation watching the topic learns
 * that failed reloads are, or are no longer, being heard. A publish that fails (broker away) is a
 * WARN, never a failed start: the listener matters more than its status.
 */
import type { MqttBrokerClient } from "../../../core/adapters/mqtt.ts";
import { type Config, taskEventsServerStatus } from "../../../core/config/index.ts";
import type { Logger } from "../../../core/ports.ts";

/** Butler's two payloads. */
export type TaskFailureServerState = "start" | "error";

/** Publishes a state; resolves when published or given up (never rejects). */
export type TaskFailureServerStatus = (state: TaskFailureServerState) => Promise<void>;

/** The publisher when the topic is set and the broker connection is there; otherwise one that does nothing. */
export function taskFailureServerStatus(
  config: Config,
  broker: MqttBrokerClient | undefined,
  logger: Logger,
): TaskFailureServerStatus {
  const topic = taskEventsServerStatus(config);
  if (topic === undefined || broker === undefined) return async () => undefined;
  return async (state) => {
    try {
      await broker.publish(topic, state);
    } catch (error) {
      logger.warn("The task-event listener's status could not be published to the broker", {
        topic,
        state,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
}
