import { createMqttPublisher } from "../../core/adapters/mqtt.ts";
import { createDisabledPublisher } from "../../core/messaging/disabled-publisher.ts";
import { startAedes } from "../helpers/aedes-broker.ts";
import { skipWithoutMosquitto, startMosquitto } from "../helpers/mosquitto.ts";
import { recordingLogger } from "../helpers/recording-logger.ts";
import { describeMessagePublisherContract, type PublisherTarget } from "./message-publisher.contract.ts";

const mqttPublisher = (target: PublisherTarget) =>
  createMqttPublisher({ ...target, logger: recordingLogger() });

describeMessagePublisherContract("MQTT (aedes)", {
  kind: "broker",
  create: mqttPublisher,
  startBroker: startAedes,
});

if (!skipWithoutMosquitto()) {
  describeMessagePublisherContract("MQTT (mosquitto)", {
    kind: "broker",
    create: mqttPublisher,
    startBroker: startMosquitto,
  });
}

describeMessagePublisherContract("disabled", { kind: "disabled", create: () => createDisabledPublisher() });
