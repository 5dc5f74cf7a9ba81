/**
 * MessagePublisher over MQTT 3.1.1 (mqtt.js). Connects in the background and reconnects on its
 * own; a publish while disconnected fails at once (502) instead of queueing a request that
 * might hang. Messages go out with QoS 1 so that the broker's PUBACK confirms each one.
 */
import mqtt, { type MqttClient } from "mqtt";
import { assertPublishTopic } from "../messaging/topic.ts";
import type { Logger, MessagePublisher } from "../ports.ts";
import { UpstreamError } from "../upstream-error.ts";

export interface MqttPublisherOptions {
  brokerHost: string;
  brokerPort: number;
  logger: Logger;
  /** Delay between reconnection attempts (default 5000 ms). */
  reconnectPeriodMs?: number;
  /** Longest wait for the broker's acknowledgement (default 5000 ms). */
  publishTimeoutMs?: number;
  /**
   * How long a publish waits for a connection still being made (default 0: fail at once).
   * Lambda sets it, since its first request arrives while the cold-start connection is opening.
   */
  connectWaitMs?: number;
}

const UPSTREAM = "mqtt broker";

export interface MqttPublisher extends MessagePublisher {
  /**
   * Resolves true once connected (at once when already), false after `waitMs`. A long-running
   * caller awaits this at start, so the first messages are not refused while the connection is
   * still being made; later publishes fail fast while the broker is away.
   */
  whenConnected(waitMs: number): Promise<boolean>;
}

export function createMqttPublisher(options: MqttPublisherOptions): MqttPublisher {
  const { logger } = options;
  const url = `mqtt://${options.brokerHost}:${options.brokerPort}`;
  const client: MqttClient = mqtt.connect(url, {
    protocolVersion: 4,
    reconnectPeriod: options.reconnectPeriodMs ?? 5000,
    connectTimeout: 10_000,
    clean: true,
  });
  let reportedDown = false;
  client.on("connect", () => {
    reportedDown = false;
    logger.info("Connected to MQTT broker", { broker: url });
  });
  client.on("offline", () => {
    if (!reportedDown) logger.warn("MQTT broker unreachable; reconnecting", { broker: url });
    reportedDown = true;
  });
  client.on("error", (error) => {
    logger.warn("MQTT client error", { broker: url, error: error.message });
  });

  const publishTimeoutMs = options.publishTimeoutMs ?? 5000;
  // Set by close(): a closed client never connects again, so a publish must not wait for it.
  let closed = false;

  /** Resolves true once connected, false after `waitMs`. */
  function connected(waitMs: number): Promise<boolean> {
    if (client.connected) return Promise.resolve(true);
    if (waitMs <= 0 || closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onConnect = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        client.off("connect", onConnect);
        resolve(false);
      }, waitMs);
      client.once("connect", onConnect);
    });
  }

  return {
    whenConnected: connected,
    async publish(topic, message) {
      assertPublishTopic(topic);
      if (closed) throw new UpstreamError(UPSTREAM, "The MQTT publisher is closed");
      if (!client.connected && !(await connected(options.connectWaitMs ?? 0))) {
        throw new UpstreamError(UPSTREAM, `Not connected to the MQTT broker at ${url}`);
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(
            new UpstreamError(UPSTREAM, `The MQTT broker did not acknowledge within ${publishTimeoutMs} ms`),
          );
        }, publishTimeoutMs);
        client.publish(topic, message, { qos: 1 }, (error) => {
          clearTimeout(timer);
          if (error)
            reject(new UpstreamError(UPSTREAM, "Publishing to the MQTT broker failed", { cause: error }));
          else resolve();
        });
      });
    },
    async close() {
      closed = true;
      await client.endAsync(true);
    },
  };
}
