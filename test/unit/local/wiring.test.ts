import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../core/config/index.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { localServices } from "../../../local/wiring.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";

const names = (config: ReturnType<typeof defaultConfig>) =>
  localServices(config, recordingLogger(), { clock: systemClock, cwd: "/nonexistent" }).map(
    (service) => service.name,
  );

describe("localServices", () => {
  it("has no scrape endpoint while scrapeEndpoint.enable is off (the default)", () => {
    expect(names(defaultConfig())).not.toContain("scrape-endpoint");
  });

  it("starts the scrape endpoint last when scrapeEndpoint.enable is on, so that it stops first", () => {
    // Prepare: without the status page, which the embedded default serves and which starts after it
    const base = defaultConfig();
    const config = {
      ...base,
      configVisualisation: { ...base.configVisualisation, enable: false },
      scrapeEndpoint: { ...base.scrapeEndpoint, enable: true },
      userEvents: { ...base.userEvents, enable: true },
    };

    // Act
    const services = names(config);

    // Assess
    expect(services.at(-1)).toBe("scrape-endpoint");
    expect(services.filter((name) => name === "scrape-endpoint")).toHaveLength(1);
    expect(services).toContain("udp-events");
  });

  it("serves the status page in the embedded default configuration, before the container health check", () => {
    const base = defaultConfig();
    const services = names({ ...base, containerHealthCheck: { ...base.containerHealthCheck, enable: true } });
    expect(services).toContain("config-ui");
    expect(services.indexOf("config-ui")).toBe(services.indexOf("container-health-check") - 1);
  });

  it("runs no self-monitoring part in the embedded default configuration", () => {
    const services = names(defaultConfig());
    for (const part of [
      "heartbeat",
      "uptime-monitor",
      "container-health-check",
      "telemetry",
      "agent-outputs",
    ]) {
      expect(services).not.toContain(part);
    }
  });

  it("adds each self-monitoring part when its switch is on, the health check last", () => {
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
    const services = names(config);
    expect(services).toEqual(
      expect.arrayContaining(["agent-outputs", "heartbeat", "uptime-monitor", "telemetry"]),
    );
    expect(services.at(-1)).toBe("container-health-check");
    expect(services.at(-2)).toBe("scrape-endpoint");
  });

  it("lists one broker connection before the REST API and the agent's outputs, so it stops after them", () => {
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

    const services = names(config);

    expect(services.filter((name) => name === "broker-connection")).toHaveLength(1);
    const broker = services.indexOf("broker-connection");
    expect(broker).toBeLessThan(services.indexOf("rest-services"));
    expect(broker).toBeLessThan(services.indexOf("agent-outputs"));
  });

  it("runs no local audit log or writers when events go to the cloud queue", () => {
    const base = defaultConfig();
    const cloud = { ...base.cloud, enable: true, region: "eu-west-1" };
    const local = names(base).filter((name) => name.startsWith("audit"));
    const toSqs = names({
      ...base,
      cloud: { ...cloud, eventQueueUrl: "https://sqs.eu-west-1.amazonaws.com/1/q" },
    }).filter((name) => name.startsWith("audit"));
    const sharedLimits = names({ ...base, cloud: { ...cloud, rateLimitTable: "limits" } }).filter((name) =>
      name.startsWith("audit"),
    );

    expect(local).toEqual(["audit-log", "audit-destinations", "audit-queue", "audit-ingest-api"]);
    expect(toSqs).toEqual(["audit-cloud-stores", "audit-queue", "audit-ingest-api"]);
    expect(sharedLimits).toEqual(["audit-cloud-stores", ...local]);
  });
});
