import { describe, expect, it } from "vitest";
import { defaultConfig, EMBEDDED_CONFIG, ENDPOINT_KEYS, parseConfig } from "../../../../core/config/index.ts";

describe("defaultConfig", () => {
  it("is the embedded config `npm start` runs on and needs no other server", () => {
    // Act
    const config = defaultConfig();

    // Assess
    expect(config.auditEvents).toMatchObject({ enable: true, host: "127.0.0.1", port: 8181 });
    expect(config.auditEvents.destination.enable).toBe(true);
    expect(config.auditEvents.destination.type).toEqual(["parquet", "json"]);
    expect(config.auditEvents.destination.parquet.exportDirectory).toBe("./data/audit-events/parquet");
    expect(config.auditEvents.destination.json.objectdata).toMatchObject({
      enable: true,
      exportDirectory: "./data/audit-events/json",
    });
    expect(config.restServer).toMatchObject({ enable: true, host: "127.0.0.1", port: 8081 });
    expect(config.keyValueStore.storeFile).toBe("./data/key-values.json");
    expect(config.scheduler.storeFile).toBe("./data/schedules.yaml");
    expect(config.fileLogging).toBe(false);
    expect(config.timeseriesdbConfig.enable).toBe(false);
    expect(config.mqttConfig.enable).toBe(false);
    expect(config.obsPlatform.enable).toBe(false);
    expect(config.userEvents.enable).toBe(false);
    expect(Object.values(config.logEvents.source).some((s) => s.enable)).toBe(false);
    expect(config.appNames.enableAppNameExtract).toBe(false);
    expect(config.userSessions.enableSessionExtract).toBe(false);
  });

  it("serves the status page on 127.0.0.1:3100 with secrets masked, and runs none of the agent's parts", () => {
    // Act
    const config = defaultConfig();

    // Assess
    expect(config.configVisualisation).toEqual({
      enable: true,
      host: "127.0.0.1",
      port: 3100,
      obfuscate: true,
      allowUnauthenticated: false,
      allowedHosts: [],
      tls: { enable: false, cert: "", key: "", pfx: "", ca: "", passphrase: "" },
    });
    expect(config.scrapeEndpoint.enable).toBe(false);
    expect(config.heartbeat.enable).toBe(false);
    expect(config.uptimeMonitor.enable).toBe(false);
    expect(config.containerHealthCheck.enable).toBe(false);
  });

  it("enables only the endpoints that need no other server", () => {
    // Act
    const enabled = ENDPOINT_KEYS.filter((k) => defaultConfig().restServer.endpointsEnable[k]);

    // Assess
    expect(enabled).toEqual([
      "apiListEnabledEndpoints",
      "ping",
      "base62ToBase16",
      "base16ToBase62",
      "keyValueStore",
      "scheduleCreate",
      "scheduleGet",
      "scheduleDelete",
      "scheduleStart",
      "scheduleStop",
      "scheduleStatus",
    ]);
  });

  it("lists the 24 endpoint keys, the default config's endpointsEnable in the same order", () => {
    // Assess
    expect(ENDPOINT_KEYS).toHaveLength(24);
    expect(Object.keys(defaultConfig().restServer.endpointsEnable)).toEqual([...ENDPOINT_KEYS]);
  });

  it("returns a fresh copy each time", () => {
    // Act
    const a = defaultConfig();
    a.restServer.port = 1;
    a.auditEvents.compatibility.push({ serverRange: "*", clientRange: "*" });
    a.logEvents.categorise.ruleDefault.category.push({ name: "n", value: "v" });
    const b = defaultConfig();

    // Assess
    expect(b.restServer.port).toBe(8081);
    expect(b.auditEvents.compatibility).toHaveLength(1);
    expect(b.logEvents.categorise.ruleDefault.category).toHaveLength(1);
  });

  it("is valid as a file tree", () => {
    // Act
    const result = parseConfig(EMBEDDED_CONFIG, {});

    // Assess
    expect(result.ok).toBe(true);
  });
});
