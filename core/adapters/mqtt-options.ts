/**
 * The one place `mqttConfig` becomes broker client options, for every runtime and caller (the
 * Lambda's REST broker client, the local process's one connection): host and port, client id, credentials, and
 * with `tls.enable` the PEM files read from disk. Relative paths resolve from `cwd`, the working
 * directory, like `cert.*`.
 *
 * The files are read synchronously, once, when the client is built: they are a few kB, and
 * the Lambda builds its REST app while the module loads, where nothing can be awaited. An
 * unreadable file throws BrokerTlsFileError naming the setting and path (never the content);
 * the CLI and the config check report the same problem before anything starts.
 *
 * Credentials without TLS are said once, at WARN, when the options are built (at start): plain
 * MQTT sends the user name and password to the broker in clear, to be read by anyone on the
 * path.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type MqttConfig, type MqttTlsFileKey, mqttTlsFiles } from "../config/index.ts";
import { BrokerTlsFileError } from "../messaging/errors.ts";
import type { Logger } from "../ports.ts";
import { brokerUrl } from "./broker-url.ts";
import type { MqttBrokerClientOptions, MqttTlsOptions } from "./mqtt.ts";

export interface MqttOptionsDeps {
  logger: Logger;
  /** Relative TLS file paths resolve from here (default: the process's working directory). */
  cwd?: string;
}

function readPem(key: MqttTlsFileKey, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "read failed";
    throw new BrokerTlsFileError(`Service.mqttConfig.tls.${key}: cannot read file ${file} (${code})`, {
      cause: error,
    });
  }
}

/** Publisher options for `mqttConfig` (whose `enable` the caller has checked). */
export function mqttBrokerClientOptions(config: MqttConfig, deps: MqttOptionsDeps): MqttBrokerClientOptions {
  const cwd = deps.cwd ?? process.cwd();
  const options: MqttBrokerClientOptions = {
    brokerHost: config.brokerHost,
    brokerPort: config.brokerPort,
    logger: deps.logger.child("mqtt"),
  };
  if (config.clientId !== "") options.clientId = config.clientId;
  if (config.username !== "") {
    options.username = config.username;
    if (config.password !== "") options.password = config.password;
    if (!config.tls.enable) {
      options.logger.warn(
        "MQTT credentials without TLS: the broker's user name and password cross the network in clear; set mqttConfig.tls.enable (brokers usually take TLS on port 8883)",
        { broker: brokerUrl(options) },
      );
    }
  }
  if (config.tls.enable) {
    const tls: MqttTlsOptions = { rejectUnauthorized: config.tls.rejectUnauthorized };
    for (const { key, file } of mqttTlsFiles(config)) {
      const pem = readPem(key, resolve(cwd, file));
      if (key === "caFile") tls.ca = pem;
      else if (key === "certFile") tls.cert = pem;
      else tls.key = pem;
    }
    options.tls = tls;
  }
  return options;
}
