/**
 * The process's one connection to the MQTT broker (`mqttConfig`), shared by the REST API's
 * `PUT /v4/mqttpublishmessage` and every agent part that publishes. Two connections would show the
 * broker the same fixed `mqttConfig.clientId` twice, and a broker closes the older connection of a
 * client id whenever the other one connects: the two would push each other off in turn, REST
 * publishes failing with 502 and agent messages lost.
 *
 * Built once at wiring, without connecting, so the same publisher can be handed to the REST
 * services and to the agent's outputs; the service connects when it starts (listed before every
 * part that publishes) and closes the connection when it stops (after all of them have stopped
 * and flushed).
 */
import { brokerUrl, createMqttPublisher, type MqttPublisher } from "../core/adapters/mqtt.ts";
import { mqttPublisherOptions } from "../core/adapters/mqtt-options.ts";
import type { Config } from "../core/config/index.ts";
import type { Logger } from "../core/ports.ts";
import type { NamedService } from "./start-in-order.ts";

export interface BrokerConnection {
  /** The publisher every part that publishes is given; it refuses at once until the service starts. */
  readonly publisher: MqttPublisher;
  /** Connects (waiting a little for the broker) and, when stopped, closes the connection. */
  readonly service: NamedService;
}

/** How long start-up waits for the broker before it goes on without it. */
const BROKER_CONNECT_WAIT_MS = 3000;

/** True when some part of the agent publishes to the broker. */
export function agentPublishes(config: Config): boolean {
  if (!config.mqttConfig.enable) return false;
  const logSources = Object.values(config.logEvents.source).some((source) => source.enable);
  return (
    (config.userEvents.enable && config.userEvents.sendToMQTT.enable) ||
    (logSources && config.logEvents.sendToMQTT.enable) ||
    config.serversToMonitor.servers.length > 0 ||
    config.userSessions.enableSessionExtract
  );
}

/** True when the REST API serves its broker endpoint. */
function restPublishes(config: Config): boolean {
  return config.restServer.enable && config.restServer.endpointsEnable.mqttPublishMessage;
}

/**
 * The connection when `mqttConfig.enable` and something publishes; otherwise undefined (nothing
 * connects). Relative `mqttConfig.tls` file paths resolve from `cwd`; an unreadable one throws
 * BrokerTlsFileError here, before anything has started.
 */
export function brokerConnection(config: Config, logger: Logger, cwd: string): BrokerConnection | undefined {
  if (!config.mqttConfig.enable || !(agentPublishes(config) || restPublishes(config))) return undefined;
  const options = mqttPublisherOptions(config.mqttConfig, { logger, cwd });
  const publisher = createMqttPublisher({ ...options, manualConnect: true });
  return {
    publisher,
    service: {
      name: "broker-connection",
      start: async () => {
        publisher.open();
        // The first events, polls and REST calls must not be refused while the connection is
        // still being made; later, while the broker is away, a publish fails at once.
        if (!(await publisher.whenConnected(BROKER_CONNECT_WAIT_MS))) {
          logger.warn(
            "The MQTT broker is not reachable yet; publishing fails until it is (REST answers 502, agent messages are dropped and counted)",
            { broker: brokerUrl(options) },
          );
        }
        return { stop: () => publisher.close() };
      },
    },
  };
}
