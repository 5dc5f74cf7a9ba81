import { createMqttBrokerClient } from "../../core/adapters/mqtt.ts";
import { createDisabledBrokerClient } from "../../core/messaging/disabled-broker-client.ts";
import { startAedes } from "../helpers/aedes-broker.ts";
import { skipWithoutMosquitto, startMosquitto } from "../helpers/mosquitto.ts";
import { recordingLogger } from "../helpers/recording-logger.ts";
import { type BrokerClientTarget, describeBrokerClientContract } from "./broker-client.contract.ts";

const mqttBrokerClient = (target: BrokerClientTarget) =>
  createMqttBrokerClient({ ...target, logger: recordingLogger() });

describeBrokerClientContract("MQTT (aedes)", {
  kind: "broker",
  create: mqttBrokerClient,
  startBroker: startAedes,
});

if (!skipWithoutMosquitto()) {
  describeBrokerClientContract("MQTT (mosquitto)", {
    kind: "broker",
    create: mqttBrokerClient,
    startBroker: startMosquitto,
  });
}

describeBrokerClientContract("disabled", { kind: "disabled", create: () => createDisabledBrokerClient() });
