/** The broker client wired when `mqttConfig.enable` is false: every publish answers 503 at once. */
import type { BrokerClient } from "../ports.ts";
import { FeatureDisabledError } from "../upstream-error.ts";

export function createDisabledBrokerClient(): BrokerClient {
  return {
    async publish() {
      throw new FeatureDisabledError("The message broker is disabled (mqttConfig.enable is false)");
    },
    async close() {},
  };
}
