/**
 * Builds the REST API's outbound clients from the config: the broker client of the Lambda (a
 * disabled one answering 503 when `mqttConfig.enable` is false, else the connection of
 * mqtt-options.ts; the local process shares one connection with its agent instead,
 * local/broker-connection.ts), and in both runtimes the observability client (accounts picked by
 * `restServer.observability.*.destinationAccount`) and the chat client.
 */

import type { Config } from "../config/index.ts";
import { createDisabledBrokerClient } from "../messaging/disabled-broker-client.ts";
import { selectAccounts } from "../observability/observability.ts";
import type { BrokerClient, ChatClient, Clock, Logger, ObservabilityClient } from "../ports.ts";
import { createChatClient } from "./http-clients/chat-client.ts";
import { mqttBrokerClientOptions } from "./mqtt-options.ts";
import { observabilityClientFor } from "./observability-client-for.ts";

/**
 * Throws BrokerTlsFileError when a `mqttConfig.tls` file cannot be read. `cwd` (relative TLS
 * paths) defaults to the working directory: the Lambda's is its code directory (/var/task).
 */
export function buildBrokerClient(
  config: Pick<Config, "mqttConfig">,
  logger: Logger,
  options: { connectWaitMs?: number; cwd?: string } = {},
): BrokerClient {
  if (!config.mqttConfig.enable) return createDisabledBrokerClient();
  const { cwd, ...overrides } = options;
  const mqttOptions = {
    ...mqttBrokerClientOptions(config.mqttConfig, { logger, ...(cwd === undefined ? {} : { cwd }) }),
    ...overrides,
  };
  // mqtt.js and its streams are loaded only when the broker is on: a cold start with it off
  // (the default) does not evaluate them. The import starts here, so the connection still opens
  // at start.
  const connecting = import("./mqtt.ts").then(({ createMqttBrokerClient }) =>
    createMqttBrokerClient(mqttOptions),
  );
  // A failed import reaches every publish and close; it must not also end the process unhandled.
  connecting.catch(() => {});
  return {
    publish: async (topic, message) => (await connecting).publish(topic, message),
    close: async () => (await connecting).close(),
  };
}

export function buildObservabilityClient(
  config: Pick<Config, "obsPlatform" | "thirdPartyToolsCredentials" | "restServer">,
  clock: Clock,
  logger: Logger,
): ObservabilityClient {
  const accountsFor = (kind: "event" | "metric") => {
    const picked = selectAccounts(
      config.thirdPartyToolsCredentials.obsPlatform,
      config.restServer.observability[kind].destinationAccount,
    );
    if (picked.unknown.length > 0) {
      logger.warn("Unknown observability destination accounts are skipped", {
        kind,
        accounts: picked.unknown.join(","),
      });
    }
    return picked.accounts;
  };
  return observabilityClientFor(
    {
      kind: "rest-api",
      obsPlatform: config.obsPlatform,
      eventAccounts: accountsFor("event"),
      metricAccounts: accountsFor("metric"),
    },
    { clock },
  );
}

export function buildChatClient(config: Pick<Config, "chat">): ChatClient {
  return createChatClient({ webhookURL: config.chat.webhookURL });
}
