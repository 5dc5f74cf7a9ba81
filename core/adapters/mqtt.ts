/**
 * BrokerClient over MQTT 3.1.1 (mqtt.js). Connects in the background and reconnects on its
 * own; a publish while disconnected fails at once (502) instead of queueing a request that
 * might hang. Messages go out with QoS 1 so that the broker's PUBACK confirms each one.
 * Credentials and certificates are passed as connect options, never in the URL, so the URL that
 * logs and errors show holds none of them. A subscription (the task start topic) is made again at
 * every connection: the session is clean, so the broker forgets it whenever the connection drops.
 *
 * The client is mqtt.js's `MqttClient` over a TCP or TLS socket opened here, not `mqtt.connect()`:
 * that function's module also loads mqtt.js's WebSocket and SOCKS proxy stream builders and their
 * packages (ws, socks, ip-address: 130 kB of the REST Lambda bundle's 1.1 MB) for protocols
 * Steward never uses, and it picks up a SOCKS proxy from `MQTTJS_SOCKS_PROXY` unasked.
 */
import { isIP, connect as netConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { IClientOptions, MqttClient, StreamBuilder } from "mqtt";
// CommonJS (`exports.default = MqttClient`): Node and esbuild hand over `exports`, loaders that
// honour `__esModule` (vitest) the class itself.
import mqttClientModule from "mqtt/lib/client";
import { assertPublishTopic, topicMatches } from "../messaging/topic.ts";
import type { BrokerClient, Logger } from "../ports.ts";
import { UpstreamError } from "../upstream-error.ts";
import { bareHost, brokerUrl } from "./broker-url.ts";

/** TLS to the broker (`mqtts://`): the PEM contents, already read. */
export interface MqttTlsOptions {
  /** CA certificate(s) of the broker's certificate; absent: Node's built-in CAs. */
  ca?: Buffer;
  /** Client certificate and its key, for brokers that require one. */
  cert?: Buffer;
  key?: Buffer;
  /** Refuse a broker whose certificate is not trusted (default true). */
  rejectUnauthorized?: boolean;
}

export interface MqttBrokerClientOptions {
  brokerHost: string;
  brokerPort: number;
  /** Client id the broker sees; absent or empty: mqtt.js generates one. */
  clientId?: string;
  /** Absent or empty: connect without credentials. */
  username?: string;
  password?: string;
  /** Present: connect over TLS (`mqtts://`). */
  tls?: MqttTlsOptions;
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
  /**
   * True: nothing connects until `open()`. A long-running process builds its one connection while
   * it wires its parts and opens it when that part starts; absent (the Lambda): connects at once.
   */
  manualConnect?: boolean;
}

const UPSTREAM = "mqtt broker";

/** What a subscription hands each message: its topic and its bytes, as the broker delivered them. */
export type MessageHandler = (topic: string, payload: Buffer) => void;

export interface MqttBrokerClient extends BrokerClient {
  /**
   * Receives the messages published under `topicFilter` (QoS 1: delivered while connected), from
   * now on and after every reconnection. A subscription the broker refuses is logged at WARN
   * with the filter. `unsubscribe` stops the delivery at once.
   */
  subscribe(topicFilter: string, onMessage: MessageHandler): { unsubscribe(): void };
  /**
   * Resolves true once connected (at once when already), false after `waitMs`. A long-running
   * caller awaits this at start, so the first messages are not refused while the connection is
   * still being made; later publishes fail fast while the broker is away.
   */
  whenConnected(waitMs: number): Promise<boolean>;
  /** Starts connecting, when built with `manualConnect` (otherwise, and when called again, nothing). */
  open(): void;
}

const imported = mqttClientModule as unknown as typeof MqttClient | { default: typeof MqttClient };
const MqttClientClass = typeof imported === "function" ? imported : imported.default;

/**
 * A new socket to the broker for each (re)connection, opened as mqtt.js's own tcp/tls stream
 * builders open it: TLS with SNI for a host name; a TLS failure ends the connection and reaches
 * the client's error listener (unless certificates are not checked).
 */
function brokerStream(options: IClientOptions): StreamBuilder {
  return (client) => {
    const host = options.host ?? "localhost";
    const port = options.port ?? (options.protocol === "mqtts" ? 8883 : 1883);
    if (options.protocol !== "mqtts") return netConnect({ host, port });
    const socket = tlsConnect({
      host,
      port,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      rejectUnauthorized: options.rejectUnauthorized !== false,
      ...(options.ca ? { ca: options.ca as Buffer } : {}),
      ...(options.cert ? { cert: options.cert as Buffer } : {}),
      ...(options.key ? { key: options.key as Buffer } : {}),
    });
    const onTlsError = (error: Error) => {
      if (options.rejectUnauthorized !== false) client.emit("error", error);
      socket.end();
    };
    socket.on("error", onTlsError);
    socket.on("secureConnect", () => socket.removeListener("error", onTlsError));
    return socket;
  };
}

/** The mqtt.js options: host and port apart (no URL to parse), credentials and TLS only when set. */
function connectOptions(options: MqttBrokerClientOptions): IClientOptions {
  const { tls } = options;
  return {
    protocol: tls ? "mqtts" : "mqtt",
    host: bareHost(options.brokerHost),
    port: options.brokerPort,
    protocolVersion: 4,
    reconnectPeriod: options.reconnectPeriodMs ?? 5000,
    // A refused CONNACK (bad credentials, broker not ready) is retried like a lost connection:
    // the broker's users may be fixed while Steward runs, and its auth back end may come up late.
    reconnectOnConnackError: true,
    connectTimeout: 10_000,
    clean: true,
    // Otherwise mqtt-packet builds a Buffer for each of the 65,536 two-byte numbers at the first
    // publish: 6 MB of heap that stays, to save one 2-byte allocation per packet.
    writeCache: false,
    // mqtt.js's own debug trace (the `debug` package, several calls per packet, each allocating
    // its arguments even when off) and the keep-alive timer moved at every packet: together about
    // a tenth of the agent's garbage at 900 messages/s. The broker still gets a PINGREQ every
    // keep-alive period (60 s) whatever the traffic.
    log: () => undefined,
    reschedulePings: false,
    // Subscriptions are made again by createMqttBrokerClient at each connection (and only there).
    resubscribe: false,
    manualConnect: options.manualConnect === true,
    ...(options.clientId ? { clientId: options.clientId } : {}),
    ...(options.username ? { username: options.username } : {}),
    ...(options.username && options.password ? { password: options.password } : {}),
    ...(tls
      ? {
          rejectUnauthorized: tls.rejectUnauthorized ?? true,
          ...(tls.ca ? { ca: tls.ca } : {}),
          ...(tls.cert ? { cert: tls.cert } : {}),
          ...(tls.key ? { key: tls.key } : {}),
        }
      : {}),
  };
}

export function createMqttBrokerClient(options: MqttBrokerClientOptions): MqttBrokerClient {
  const { logger } = options;
  const url = brokerUrl(options);
  const clientOptions = connectOptions(options);
  const client: MqttClient = new MqttClientClass(brokerStream(clientOptions), clientOptions);
  let reportedDown = false;
  // The reason the last attempt failed (refused, TLS, network), for the error of a refused publish;
  // each reason is logged once per outage, not on every retry.
  let lastError: string | undefined;
  client.on("connect", () => {
    reportedDown = false;
    lastError = undefined;
    logger.info("Connected to MQTT broker", { broker: url });
  });
  client.on("offline", () => {
    if (!reportedDown) logger.warn("MQTT broker unreachable; reconnecting", { broker: url });
    reportedDown = true;
  });
  client.on("error", (error) => {
    // OpenSSL's messages end in a newline.
    const reason = error.message.trim();
    if (reason !== lastError) logger.warn("MQTT client error", { broker: url, error: reason });
    lastError = reason;
  });

  const subscriptions = new Map<string, MessageHandler>();
  function subscribeNow(topicFilter: string): void {
    client.subscribe(topicFilter, { qos: 1 }, (error, granted) => {
      if (error !== null && error !== undefined) {
        logger.warn("MQTT subscription failed", { broker: url, topic: topicFilter, error: error.message });
      } else if (granted?.some((grant) => grant.qos === 128)) {
        logger.warn("The MQTT broker refused the subscription (check its access rules)", {
          broker: url,
          topic: topicFilter,
        });
      } else {
        logger.info("Subscribed to MQTT topic", { broker: url, topic: topicFilter });
      }
    });
  }
  client.on("connect", () => {
    for (const topicFilter of subscriptions.keys()) subscribeNow(topicFilter);
  });
  client.on("message", (topic, payload) => {
    for (const [topicFilter, onMessage] of subscriptions) {
      if (!topicMatches(topicFilter, topic)) continue;
      try {
        onMessage(topic, payload);
      } catch (error) {
        logger.error("handling an MQTT message failed", {
          topic,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  });

  const publishTimeoutMs = options.publishTimeoutMs ?? 5000;
  // Set by close(): a closed client never connects again, so a publish must not wait for it.
  let closed = false;
  // False only while a manually connected client waits for open(): mqtt.js's end() needs a stream.
  let opened = options.manualConnect !== true;

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
    open() {
      if (opened || closed) return;
      opened = true;
      client.connect();
    },
    async publish(topic, message) {
      assertPublishTopic(topic);
      if (closed) throw new UpstreamError(UPSTREAM, "The MQTT publisher is closed");
      if (!client.connected && !(await connected(options.connectWaitMs ?? 0))) {
        const reason = lastError === undefined ? "" : ` (${lastError})`;
        throw new UpstreamError(UPSTREAM, `Not connected to the MQTT broker at ${url}${reason}`);
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
    subscribe(topicFilter, onMessage) {
      subscriptions.set(topicFilter, onMessage);
      if (client.connected) subscribeNow(topicFilter);
      return {
        unsubscribe() {
          if (subscriptions.get(topicFilter) !== onMessage) return;
          subscriptions.delete(topicFilter);
          if (client.connected) client.unsubscribe(topicFilter, () => undefined);
        },
      };
    },
    async close() {
      closed = true;
      if (opened) await client.endAsync(true);
    },
  };
}
