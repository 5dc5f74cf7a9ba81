/**
 * The parts the local runtime starts for a config, in start order: each config is started for
 * real, every listener on a free loopback port and every file under a scratch directory, and
 * stopped again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, defaultConfig } from "../../../core/config/index.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { startLocal } from "../../../local/wiring.ts";
import { type AedesBroker, startAedes } from "../../helpers/aedes-broker.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";

let broker: AedesBroker;
beforeAll(async () => {
  broker = await startAedes();
});
afterAll(() => broker.stop());

/** `config` with every listener on loopback port 0 and the broker on the test's own. */
function onLoopback(config: Config): Config {
  const host = "127.0.0.1";
  return {
    ...config,
    auditEvents: { ...config.auditEvents, host, port: 0 },
    restServer: { ...config.restServer, host, port: 0 },
    scrapeEndpoint: { ...config.scrapeEndpoint, host, port: 0 },
    configVisualisation: { ...config.configVisualisation, host, port: 0 },
    containerHealthCheck: { ...config.containerHealthCheck, port: 0 },
    mqttConfig: { ...config.mqttConfig, brokerHost: host, brokerPort: broker.port },
    userEvents: {
      ...config.userEvents,
      udpServerConfig: { ...config.userEvents.udpServerConfig, serverHost: host, portUserActivityEvents: 0 },
    },
    logEvents: {
      ...config.logEvents,
      udpServerConfig: { ...config.logEvents.udpServerConfig, serverHost: host, portLogEvents: 0 },
    },
  };
}

const names = async (config: Config): Promise<string[]> => {
  const running = await startLocal(onLoopback(config), recordingLogger(), {
    clock: systemClock,
    cwd: scratchDirectory("steward-wiring-"),
  });
  await running.stop();
  return [...running.names];
};

describe("startLocal", () => {
  it("has no scrape endpoint while scrapeEndpoint.enable is off (the default)", async () => {
    expect(await names(defaultConfig())).not.toContain("scrape-endpoint");
  });

  it("starts the scrape endpoint last when scrapeEndpoint.enable is on, so that it stops first", async () => {
    // Prepare: without the status page, which the embedded default serves and which starts after it
    const base = defaultConfig();
    const config = {
      ...base,
      configVisualisation: { ...base.configVisualisation, enable: false },
      scrapeEndpoint: { ...base.scrapeEndpoint, enable: true },
      userEvents: { ...base.userEvents, enable: true },
    };

    // Act
    const services = await names(config);

    // Assess
    expect(services.at(-1)).toBe("scrape-endpoint");
    expect(services.filter((name) => name === "scrape-endpoint")).toHaveLength(1);
    expect(services).toContain("udp-events");
  });

  it("serves the status page in the embedded default configuration, before the container health check", async () => {
    const base = defaultConfig();
    const services = await names({
      ...base,
      containerHealthCheck: { ...base.containerHealthCheck, enable: true },
    });
    expect(services).toContain("config-ui");
    expect(services.indexOf("config-ui")).toBe(services.indexOf("container-health-check") - 1);
  });

  it("runs no self-monitoring part in the embedded default configuration", async () => {
    const services = await names(defaultConfig());
    for (const part of [
      "heartbeat",
      "uptime-monitor",
      "container-health-check",
      "telemetry",
      "agent-connections",
    ]) {
      expect(services).not.toContain(part);
    }
  });

  it("adds each self-monitoring part when its switch is on, the health check last", async () => {
    // Without the status page, which the embedded default serves: it starts between the two.
    const base = defaultConfig();
    const config = {
      ...base,
      configVisualisation: { ...base.configVisualisation, enable: false },
      anonTelemetry: true,
      anonTelemetryEndpoint: "http://127.0.0.1:9/t",
      heartbeat: { ...base.heartbeat, enable: true, remoteURL: "http://127.0.0.1:9/hb" },
      uptimeMonitor: { ...base.uptimeMonitor, enable: true },
      containerHealthCheck: { ...base.containerHealthCheck, enable: true },
      errorTracking: { ...base.errorTracking, enable: true },
      scrapeEndpoint: { ...base.scrapeEndpoint, enable: true },
    };
    const services = await names(config);
    expect(services).toEqual(
      expect.arrayContaining(["agent-connections", "heartbeat", "uptime-monitor", "telemetry"]),
    );
    expect(services.at(-1)).toBe("container-health-check");
    expect(services.at(-2)).toBe("scrape-endpoint");
  });

  it("lists one broker connection before the REST API and the agent's connections, so it stops after them", async () => {
    const base = defaultConfig();
    const config = {
      ...base,
      mqttConfig: { ...base.mqttConfig, enable: true, clientId: "steward-1" },
      restServer: {
        ...base.restServer,
        endpointsEnable: { ...base.restServer.endpointsEnable, mqttPublishMessage: true },
      },
      userEvents: {
        ...base.userEvents,
        enable: true,
        sendToMQTT: { ...base.userEvents.sendToMQTT, enable: true },
      },
    };

    const services = await names(config);

    expect(services.filter((name) => name === "broker-connection")).toHaveLength(1);
    const broker = services.indexOf("broker-connection");
    expect(broker).toBeLessThan(services.indexOf("rest-services"));
    expect(broker).toBeLessThan(services.indexOf("agent-connections"));
  });

  it("runs no local audit log or writers when events go to the cloud queue", async () => {
    const base = defaultConfig();
    const cloud = { ...base.cloud, enable: true, region: "eu-west-1" };
    const local = (await names(base)).filter((name) => name.startsWith("audit"));
    const toSqs = (
      await names({
        ...base,
        cloud: { ...cloud, eventQueueUrl: "https://sqs.eu-west-1.amazonaws.com/1/q" },
      })
    ).filter((name) => name.startsWith("audit"));
    const sharedLimits = (await names({ ...base, cloud: { ...cloud, rateLimitTable: "limits" } })).filter(
      (name) => name.startsWith("audit"),
    );

    expect(local).toEqual(["audit-log", "audit-destinations", "audit-queue", "audit-ingest-api"]);
    expect(toSqs).toEqual(["audit-cloud-stores", "audit-queue", "audit-ingest-api"]);
    expect(sharedLimits).toEqual(["audit-cloud-stores", ...local]);
  });
});
