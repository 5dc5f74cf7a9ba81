import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../core/config/index.ts";
import { lines, parseOk, problemsOf } from "./helpers.ts";

describe("parseConfig: minimal files and defaults", () => {
  it("accepts an empty tree, null and an empty Service", () => {
    // Prepare / Act
    const results = [
      parseConfig(undefined, {}),
      parseConfig(null, {}),
      parseConfig({ Service: null }, {}),
      parseConfig({ Service: {} }, {}),
    ];

    // Assess
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
  });

  it("fills the documented defaults of a minimal file", () => {
    // Act
    const config = parseOk({});

    // Assess
    expect(config.logLevel).toBe("info");
    expect(config.anonTelemetry).toBe(false);
    expect(config.crashFile).toEqual({
      enable: true,
      crashFileDirectory: "./crash_dumps",
      crashFileCreateJson: true,
      crashFileCreateText: true,
    });
    expect(config.auditEvents.host).toBe("127.0.0.1");
    expect(config.auditEvents.port).toBe(8181);
    expect(config.auditEvents.rateLimit).toEqual({ enable: true, maxPerMinute: 300 });
    expect(config.auditEvents.queue.maxSize).toBe(200);
    expect(config.auditEvents.compatibility).toEqual([
      { serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" },
    ]);
    expect(config.auditEvents.destination.json.objectdata.exportDirectory).toBe("audit-events/json");
    expect(config.restServer).toMatchObject({ enable: true, host: "127.0.0.1", port: 8081, apiToken: "" });
    expect(config.restServer.rateLimit).toEqual({ enable: true, maxPerMinute: 600 });
    expect(config.keyValueStore).toEqual({
      enable: true,
      maxKeysPerNamespace: 1000,
      maxNamespaces: 100,
      maxTotalBytes: 32 * 1024 * 1024,
      storeFile: "./data/key-values.json",
    });
    expect(config.scheduler).toEqual({ enable: true, storeFile: "./data/schedules.yaml" });
    expect(config.platform).toEqual({
      host: "",
      repositoryPort: 4242,
      enginePort: 4747,
      userHeader: "UserDirectory=Internal;UserId=sa_repository",
      rejectUnauthorized: true,
      timeoutMs: 30000,
    });
    expect(config.timeseriesdbConfig.maxBatchSize).toBe(1000);
    expect(config.timeseriesdbConfig.v3Config.writeTimeout).toBe(10000);
    expect(config.timeseriesdbConfig.v3Config.queryTimeout).toBe(60000);
    expect(config.mqttConfig.brokerPort).toBe(1883);
    expect(config.scrapeEndpoint.port).toBe(9842);
    expect(config.scrapeEndpoint.host).toBe("127.0.0.1"); // loopback: never every interface unasked
    expect(config.userEvents.udpServerConfig.maxMessageSize).toBe(65507);
    expect(config.logEvents.udpServerConfig.queueMetrics.timeseriesdb.measurementName).toBe(
      "log_events_queue",
    );
    expect(config.errorTracking.timeseriesdb.measurementName).toBe("butler_sos_errors");
    expect(config.serversToMonitor.servers).toEqual([]);
    expect(config.thirdPartyToolsCredentials.obsPlatform).toEqual([]);
  });

  it("turns null lists and maps (all items commented out) into empty ones", () => {
    // Act
    const config = parseOk({
      userEvents: { enable: true, excludeUser: null, tags: null },
      serversToMonitor: { serverTagsDefinition: null },
      fileOperations: { copyApprovedDirectories: null, deleteApprovedDirectories: null },
      auditEvents: { cors: null },
    });

    // Assess
    expect(config.userEvents.excludeUser).toEqual([]);
    expect(config.userEvents.tags).toEqual([]);
    expect(config.serversToMonitor.serverTagsDefinition).toEqual([]);
    expect(config.fileOperations.copyApprovedDirectories).toEqual([]);
    expect(config.fileOperations.deleteApprovedDirectories).toEqual([]);
    expect(config.auditEvents.cors.allowedOrigins).toEqual([]);
  });

  it("reports a null list item as the wrong type instead of an empty item", () => {
    // Act
    const problems = problemsOf({ serversToMonitor: { servers: [null] } });

    // Assess
    expect(problems).toEqual(["Service.serversToMonitor.servers[0]: expected a mapping, received null"]);
  });

  it("parses the destination type list into a de-duplicated array", () => {
    // Act
    const config = parseOk({ auditEvents: { destination: { type: "json, parquet,json,tablefile" } } });

    // Assess
    expect(config.auditEvents.destination.type).toEqual(["json", "parquet", "tablefile"]);
  });
});

describe("parseConfig: problems", () => {
  it("reports every problem at once, sorted by path, with a suggestion for unknown keys", () => {
    // Act
    const problems = problemsOf({
      restServer: { port: 70000, rateLimt: {} },
      auditEvents: { rateLimt: { enable: true }, port: "8181" },
      logLevel: "loud",
    });

    // Assess
    expect(problems).toEqual([
      'Service.auditEvents.port: expected number, received "8181"',
      'Service.auditEvents.rateLimt: unknown key (did you mean "rateLimit"?)',
      "Service.logLevel: must be one of error, warn, info, verbose, debug, silly",
      "Service.restServer.port: must be a port number (integer 1-65535)",
      'Service.restServer.rateLimt: unknown key (did you mean "rateLimit"?)',
    ]);
  });

  it("never coerces types", () => {
    // Act
    const problems = problemsOf({ fileLogging: "true", auditEvents: { maxBodyBytes: "1" } });

    // Assess
    expect(problems).toEqual([
      'Service.auditEvents.maxBodyBytes: expected number, received "1"',
      'Service.fileLogging: expected boolean, received "true"',
    ]);
  });

  it("rejects unknown top-level keys and a non-mapping Service", () => {
    // Act
    const unknownTop = parseConfig({ Servce: {} }, {});
    const scalar = parseConfig({ Service: 3 }, {});
    const list = parseConfig([1], {});

    // Assess
    expect(unknownTop.ok ? [] : lines(unknownTop.problems)).toEqual([
      'Servce: unknown top-level key (did you mean "Service"?)',
    ]);
    expect(scalar.ok ? [] : lines(scalar.problems)).toEqual(["Service: expected a mapping, received 3"]);
    expect(list.ok).toBe(false);
  });

  it("rejects a string enable flag instead of silently disabling the section", () => {
    // Act
    const problems = problemsOf({ heartbeat: { enable: "true" } });

    // Assess
    expect(problems).toEqual(['Service.heartbeat.enable: expected boolean, received "true"']);
  });

  it("rejects bad host names, URLs, ports and negative durations", () => {
    // Act
    const problems = problemsOf({
      auditEvents: { host: "bad_host!", port: 0, destination: { parquet: { writeFrequency: -1 } } },
      restServer: { port: 80.5 },
      heartbeat: { enable: true, remoteURL: "ftp://x.example.com" },
      timeseriesdbConfig: { enable: true, host: "-leading.example", version: 1, v1Config: { dbName: "d" } },
    });

    // Assess
    expect(problems).toEqual([
      "Service.auditEvents.destination.parquet.writeFrequency: must be >= 0",
      'Service.auditEvents.host: "bad_host!" is not a host name (RFC 1123) or an IPv4/IPv6 address',
      "Service.auditEvents.port: must be a port number (integer 1-65535)",
      "Service.heartbeat.remoteURL: must be an http(s) URL",
      "Service.restServer.port: must be a port number (integer 1-65535)",
      'Service.timeseriesdbConfig.host: "-leading.example" is not a host name (RFC 1123) or an IPv4/IPv6 address',
    ]);
  });

  it("accepts IPv4, IPv6 and RFC 1123 host names", () => {
    // Act
    const problems = ["10.0.0.1", "::1", "fe80::1", "localhost", "db-1.example.com"].flatMap((host) =>
      problemsOf({ auditEvents: { host } }),
    );

    // Assess
    expect(problems).toEqual([]);
  });

  it("does not print the value of a secret with the wrong type", () => {
    // Act
    const problems = problemsOf({ restServer: { apiToken: 123456789 } });

    // Assess
    expect(problems).toEqual(["Service.restServer.apiToken: expected string"]);
  });
});
