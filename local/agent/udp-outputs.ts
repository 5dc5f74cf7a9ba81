/**
 * The destinations of the UDP pipelines, chosen once from the config: which ones each pipeline
 * writes to (its own switch and the destination's master switch), one time-series writer and one
 * broker connection shared by both pipelines, and an observability poster per account list.
 */
import { createObservabilityPoster } from "../../core/adapters/http-posters/observability-poster.ts";
import { createTimeseriesWriter } from "../../core/adapters/influx/create-timeseries-writer.ts";
import { createMqttPublisher, type MqttPublisher } from "../../core/adapters/mqtt.ts";
import { mqttPublisherOptions } from "../../core/adapters/mqtt-options.ts";
import type { Config } from "../../core/config/index.ts";
import { selectAccounts } from "../../core/observability/observability.ts";
import type { Clock, Logger, TimeseriesWriter } from "../../core/ports.ts";

export interface SendTo {
  timeseriesdb: boolean;
  mqtt: boolean;
  obsPlatform: boolean;
  accounts: readonly string[];
}

/** Which destinations a pipeline writes to: its own switch AND the destination's master switch. */
export function sendToOf(
  config: Config,
  section: {
    sendToTimeseriesdb: { enable: boolean };
    sendToMQTT: { enable: boolean };
    sendToObsPlatform: { enable: boolean; destinationAccount: readonly string[] };
  },
): SendTo {
  return {
    timeseriesdb: config.timeseriesdbConfig.enable && section.sendToTimeseriesdb.enable,
    mqtt: config.mqttConfig.enable && section.sendToMQTT.enable,
    obsPlatform: config.obsPlatform.enable && section.sendToObsPlatform.enable,
    accounts: section.sendToObsPlatform.destinationAccount,
  };
}

/**
 * One time-series writer and one broker connection, shared by both pipelines and the counters.
 * Relative `mqttConfig.tls` file paths resolve from `cwd`; an unreadable one throws
 * BrokerTlsFileError before anything connects.
 */
export function sharedOutputs(
  config: Config,
  logger: Logger,
  cwd: string,
): { series: TimeseriesWriter | undefined; publisher: MqttPublisher | undefined } {
  // Read first: the TLS files are what can fail here, and then no writer has been made for nothing.
  const wantsBroker =
    config.mqttConfig.enable &&
    ((config.userEvents.enable && config.userEvents.sendToMQTT.enable) || config.logEvents.sendToMQTT.enable);
  const brokerOptions = wantsBroker ? mqttPublisherOptions(config.mqttConfig, { logger, cwd }) : undefined;
  const series = config.timeseriesdbConfig.enable
    ? createTimeseriesWriter(config.timeseriesdbConfig)
    : undefined;
  const publisher = brokerOptions ? createMqttPublisher(brokerOptions) : undefined;
  return { series, publisher };
}

export function observabilityFor(config: Config, sendTo: SendTo, clock: Clock, logger: Logger) {
  const picked = selectAccounts(config.thirdPartyToolsCredentials.obsPlatform, sendTo.accounts);
  if (picked.unknown.length > 0) {
    logger.warn("Unknown observability destination accounts are skipped", {
      accounts: picked.unknown.join(","),
    });
  }
  // The event mappers add the attributes each event type carries (static ones for log events only).
  const destination = {
    url: config.obsPlatform.event.url,
    headers: config.obsPlatform.event.header,
    staticAttributes: [],
    accounts: picked.accounts,
  };
  return {
    poster: createObservabilityPoster({ event: destination, metric: destination, clock }),
    accounts: picked.accounts,
  };
}
