/**
 * Task starts from the broker as a part of the local process: on the process's one broker
 * connection (broker-connection.ts) it subscribes to `mqttConfig.subscriptionRootTopic` (or to
 * `taskStartTopic` itself when no root is set), as Butler did, and hands every message published
 * exactly to `taskStartTopic` to the start use case (core/platform/broker-task-starts.ts) with the
 * process's start filter and counts; other topics under the root are not for it and are ignored.
 * The platform client is its own, over the same `platform.*` and `cert.*` settings as the REST
 * API's, so the broker starts tasks whether or not the REST API is on.
 *
 * Started after the broker connection and the REST API, so it stops first: it stops taking
 * messages, drops those still waiting (counted) and gives the start under way `STOP_GRACE_MS`.
 */
import type { MqttBrokerClient } from "../core/adapters/mqtt.ts";
import type { Config } from "../core/config/index.ts";
import { createBrokerTaskStarts } from "../core/platform/index.ts";
import type { Clock, Logger } from "../core/ports.ts";
import { openPlatformClient } from "./open-platform-client.ts";
import type { NamedPart } from "./start-in-order.ts";
import type { TaskStartRules } from "./task-start-rules.ts";

/** How long the start under way at shutdown may take before the part stops anyway. */
export const STOP_GRACE_MS = 2000;

export interface BrokerTaskStartsDeps {
  readonly clock: Clock;
  readonly cwd: string;
  readonly broker: MqttBrokerClient;
  readonly rules: TaskStartRules;
}

export function brokerTaskStartsPart(config: Config, logger: Logger, deps: BrokerTaskStartsDeps): NamedPart {
  const { taskStartTopic, subscriptionRootTopic } = config.mqttConfig;
  const subscription = subscriptionRootTopic === "" ? taskStartTopic : subscriptionRootTopic;
  return {
    name: "broker-task-starts",
    start: async () => {
      const scoped = logger.child("broker-task-starts");
      const platform = await openPlatformClient(config, config.platform.host, {
        logger,
        clock: deps.clock,
        cwd: deps.cwd,
      });
      const starts = createBrokerTaskStarts({
        platform,
        filter: deps.rules.filter,
        counts: deps.rules.counts,
        logger: scoped,
        clock: deps.clock,
        topic: taskStartTopic,
      });
      const subscribed = deps.broker.subscribe(subscription, (topic, payload) => {
        if (topic === taskStartTopic) starts.receive(payload);
      });
      scoped.info("Starting the tasks whose ids are published to the broker", {
        topic: taskStartTopic,
        subscription,
        startTaskFilter: deps.rules.filter.enabled ? "on" : "off",
      });
      return {
        async stop() {
          subscribed.unsubscribe();
          await starts.stop(STOP_GRACE_MS);
          platform.close();
        },
      };
    },
  };
}
