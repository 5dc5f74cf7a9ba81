/**
 * The process's one connection to the MQTT broker (`mqttConfig`), shared by the REST API's
 * `PUT /v4/mqttpublishmessage`, every agent part that publishes and the task starts taken from
 * the broker (broker-task-starts.ts). Two connections would show the
 * broker the same fixed `mqttConfig.clientId` twice, and a broker closes the older connection of a
 * client id whenever the other one connects: the two would push each other off in turn, REST
 * publishes failing with 502 and agent messages lost.
 *
 * Built once at wiring, without connecting, so the same client can be handed to the REST
 * services and to the agent's connections; the part connects when it starts (listed before every
 * part that publishes) and closes the connection when it stops (after all of them have stopped
 * and flushed).
 */
import { brokerUrl } from "../core/adapters/broker-url.ts";
import { createMqttBrokerClient, type MqttBrokerClient } from "../core/adapters/mqtt.ts";
import { mqttBrokerClientOptions } from "../core/adapters/mqtt-options.ts";
import {
  type Config,
  cloudRunsPublish,
  licenseMonitorDestinations,
  logEventsEnabled,
  pipelineDestinations,
  serviceMonitorDestinations,
  taskEventsPublish,
  taskEventsServerStatus,
} from "../core/config/index.ts";
import type { Logger } from "../core/ports.ts";
import { platformPollingEnabled } from "./agent/platform-polling.ts";
import type { NamedPart } from "./start-in-order.ts";
import { startsTasksFromBroker } from "./task-start-rules.ts";

export interface BrokerConnection {
  /** The client every part that publishes is given; it refuses at once until the part starts. */
  readonly client: MqttBrokerClient;
  /** Connects (waiting a little for the broker) and, when stopped, closes the connection. */
  readonly part: NamedPart;
}

/** How long start-up waits for the broker before it goes on without it. */
const BROKER_CONNECT_WAIT_MS = 3000;

/**
 * True when some part of the agent publishes to the broker: a UDP pipeline that writes there,
 * platform polling (whose answers go to the broker whenever it is on), task events with their
 * broker messages on or with their listener's status topic set, or the licence monitor with
 * `sendToMQTT` on, or the Qlik Cloud tenants' runs with `taskEvents.sendToMQTT` on, as those
 * parts decide it.
 */
export function agentPublishes(config: Config): boolean {
  if (!config.mqttConfig.enable) return false;
  return (
    (config.userEvents.enable && pipelineDestinations(config, config.userEvents).mqtt) ||
    (logEventsEnabled(config) && pipelineDestinations(config, config.logEvents).mqtt) ||
    platformPollingEnabled(config) ||
    taskEventsPublish(config) ||
    cloudRunsPublish(config) ||
    taskEventsServerStatus(config) !== undefined ||
    licenseMonitorDestinations(config).mqtt ||
    serviceMonitorDestinations(config).mqtt
  );
}

/** True when the REST API serves its broker endpoint. */
function restPublishes(config: Config): boolean {
  return config.restServer.enable && config.restServer.endpointsEnable.mqttPublishMessage;
}

/**
 * The connection when `mqttConfig.enable` and something publishes or tasks are started from the
 * broker; otherwise undefined (nothing connects). Relative `mqttConfig.tls` file paths resolve from `cwd`; an unreadable one throws
 * BrokerTlsFileError here, before anything has started.
 */
export function brokerConnection(config: Config, logger: Logger, cwd: string): BrokerConnection | undefined {
  if (!config.mqttConfig.enable) return undefined;
  if (!(agentPublishes(config) || restPublishes(config) || startsTasksFromBroker(config))) return undefined;
  const options = mqttBrokerClientOptions(config.mqttConfig, { logger, cwd });
  const client = createMqttBrokerClient({ ...options, manualConnect: true });
  return {
    client,
    part: {
      name: "broker-connection",
      start: async () => {
        client.open();
        // The first events, polls and REST calls must not be refused while the connection is
        // still being made; later, while the broker is away, a publish fails at once.
        if (!(await client.whenConnected(BROKER_CONNECT_WAIT_MS))) {
          logger.warn(
            "The MQTT broker is not reachable yet; publishing fails until it is (REST answers 502, agent messages are dropped and counted)",
            { broker: brokerUrl(options) },
          );
        }
        return { stop: () => client.close() };
      },
    },
  };
}
