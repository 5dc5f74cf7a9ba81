/**
 * The broker destination of task alerts when task events publish (their broker switch and the
 * broker's master switch on): on the process's one broker connection, never a second one.
 */
import { createMqttTaskDestination } from "../../core/alerts/mqtt-task-destination.ts";
import { taskEventsPublish } from "../../core/config/udp-pipelines.ts";
import type { AlertDestinationFactory } from "./alert-destinations.ts";

export const mqttAlerts: AlertDestinationFactory = ({ config, connections }) => {
  const broker = connections.broker;
  if (!taskEventsPublish(config) || broker === undefined) return undefined;
  return createMqttTaskDestination({ config: config.taskEvents.sendToMQTT, broker });
};
