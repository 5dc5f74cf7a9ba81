/**
 * The destinations of the UDP pipelines, chosen once from the config: which ones each pipeline
 * writes to (its own switch and the destination's master switch), and an observability client
 * per account list. The time-series client and broker connection are the agent's shared ones
 * (agent-connections.ts).
 */
import { createObservabilityClient } from "../../core/adapters/http-clients/observability-client.ts";
import type { Config } from "../../core/config/index.ts";
import { selectAccounts } from "../../core/observability/observability.ts";
import type { Clock, Logger } from "../../core/ports.ts";

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
    client: createObservabilityClient({ event: destination, metric: destination, clock }),
    accounts: picked.accounts,
  };
}
