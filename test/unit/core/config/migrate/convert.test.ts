/**
 * migrate-config's converter: a Butler SOS configuration (written from Butler SOS's complete key
 * tree) becomes a Steward one that the config parser accepts, with values and comments kept,
 * every key left out named with its reason, and every section on or off.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Config, checkConfigText } from "../../../../../core/config/index.ts";
import { migrateButlerSosConfig } from "../../../../../core/config/migrate/convert.ts";
import { butlerSosFixture, withEverySwitch } from "../../../../helpers/butler-sos-config.ts";

const OPTIONS = { sourceName: "butler-sos.yaml", convertedBy: "steward 15.0.0" };

function migrate(text: string) {
  const result = migrateButlerSosConfig(text, OPTIONS);
  if (!result.ok) throw new Error(result.message);
  return result;
}

function accepted(text: string): Config {
  const checked = checkConfigText(text, "converted.yaml", {});
  if (!checked.ok) throw new Error(checked.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return checked.config;
}

function at(tree: unknown, path: string): unknown {
  let node = tree;
  for (const key of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[key];
  return node;
}

/** The keys Steward's configuration file names otherwise, Butler SOS path → Steward path. */
const RENAMED: [string, string][] = [
  ["dockerHealthCheck", "containerHealthCheck"],
  ["prometheus.port", "scrapeEndpoint.port"],
  ["newRelic.event.url", "obsPlatform.event.url"],
  ["newRelic.metric.dynamic.engine", "obsPlatform.metric.dynamic.engine"],
  ["newRelic.event.attribute.dynamic.butlerSosVersion", "obsPlatform.event.attribute.dynamic.serviceVersion"],
  [
    "newRelic.metric.attribute.dynamic.butlerSosVersion",
    "obsPlatform.metric.attribute.dynamic.serviceVersion",
  ],
  ["influxdbConfig", "timeseriesdbConfig"],
  ["qlikSenseEvents.influxdb", "platformEvents.timeseriesdb"],
  ["qlikSenseEvents.eventCount.influxdb", "platformEvents.eventCount.timeseriesdb"],
  ["qlikSenseEvents.rejectedEventCount.influxdb", "platformEvents.rejectedEventCount.timeseriesdb"],
  ["errorTracking.influxdb", "errorTracking.timeseriesdb"],
  ["thirdPartyToolsCredentials.newRelic", "thirdPartyToolsCredentials.obsPlatform"],
  [
    "uptimeMonitor.storeInInfluxdb.butlerSOSMemoryUsage",
    "uptimeMonitor.storeInTimeseriesdb.serviceMemoryUsage",
  ],
  ["uptimeMonitor.storeInInfluxdb.instanceTag", "uptimeMonitor.storeInTimeseriesdb.instanceTag"],
  [
    "uptimeMonitor.storeNewRelic.metric.dynamic.butlerMemoryUsage",
    "uptimeMonitor.storeObsPlatform.metric.dynamic.serviceMemoryUsage",
  ],
  [
    "uptimeMonitor.storeNewRelic.metric.dynamic.butlerUptime",
    "uptimeMonitor.storeObsPlatform.metric.dynamic.serviceUptime",
  ],
  [
    "uptimeMonitor.storeNewRelic.attribute.dynamic.butlerVersion",
    "uptimeMonitor.storeObsPlatform.attribute.dynamic.serviceVersion",
  ],
  ["uptimeMonitor.storeNewRelic.destinationAccount", "uptimeMonitor.storeObsPlatform.destinationAccount"],
  [
    "userEvents.udpServerConfig.queueMetrics.influxdb",
    "userEvents.udpServerConfig.queueMetrics.timeseriesdb",
  ],
  ["logEvents.udpServerConfig.queueMetrics.influxdb", "logEvents.udpServerConfig.queueMetrics.timeseriesdb"],
  ["userEvents.sendToInfluxdb", "userEvents.sendToTimeseriesdb"],
  ["userEvents.sendToNewRelic", "userEvents.sendToObsPlatform"],
  ["logEvents.sendToInfluxdb", "logEvents.sendToTimeseriesdb"],
  ["logEvents.sendToNewRelic", "logEvents.sendToObsPlatform"],
  ["logEvents.source.qixPerf", "logEvents.source.engineApiPerf"],
  ["auditEvents.queue.messageQueue.maxSize", "auditEvents.queue.maxSize"],
  ["auditEvents.queue.rateLimit.maxMessagesPerMinute", "auditEvents.queue.rateLimit.maxPerMinute"],
  ["auditEvents.queue.queueMetrics.influxdb", "auditEvents.queue.queueMetrics.timeseriesdb"],
  [
    "auditEvents.destination.influxdb.metadata.measurementName",
    "auditEvents.destination.timeseriesdb.measurementName",
  ],
  [
    "auditEvents.destination.parquet.metadata.exportDirectory",
    "auditEvents.destination.parquet.exportDirectory",
  ],
  [
    "auditEvents.destination.qvd.metadata.exportDirectory",
    "auditEvents.destination.tablefile.exportDirectory",
  ],
];

/** Keys of complete.yaml that have no counterpart in Steward. */
const LEFT_OUT = [
  "Butler-SOS.prometheus.nodeMetricsHost",
  "Butler-SOS.prometheus.nodeMetricsPort",
  "Butler-SOS.auditEvents.destination.influxdb.metadata.host",
  "Butler-SOS.auditEvents.destination.influxdb.metadata.port",
  "Butler-SOS.auditEvents.destination.influxdb.metadata.version",
  "Butler-SOS.auditEvents.destination.influxdb.metadata.auditEventSchemaVersion",
  "Butler-SOS.auditEvents.destination.influxdb.metadata.v3Config",
  "Butler-SOS.auditEvents.destination.influxdb.objectdata",
  "Butler-SOS.auditEvents.destination.screenshots",
];

describe("migrateButlerSosConfig", () => {
  const source = butlerSosFixture("complete.yaml");
  const result = migrate(source);
  const before = (parse(source) as { "Butler-SOS": unknown })["Butler-SOS"];
  const after = (parse(result.text) as { Service: unknown }).Service;

  it("writes Service with every renamed key holding the Butler SOS value", () => {
    expect(parse(result.text)).not.toHaveProperty("Butler-SOS");
    for (const [from, to] of RENAMED) {
      expect(at(before, from), from).toBeDefined();
      expect(at(after, to), `${from} → ${to}`).toEqual(at(before, from));
    }
    for (const [from] of RENAMED) {
      if (!RENAMED.some(([, to]) => to === from)) expect(at(after, from), from).toBeUndefined();
    }
  });

  it("keeps the keys both systems share, values unchanged", () => {
    for (const path of [
      "logLevel",
      "crashFile",
      "heartbeat",
      "cert.clientCert",
      "mqttConfig",
      "appNames",
      "userSessions",
      "serversToMonitor",
      "logEvents.categorise",
      "logEvents.enginePerformanceMonitor",
      "userEvents.sendToMQTT",
      "auditEvents.cors",
      "auditEvents.tls",
    ]) {
      expect(at(after, path), path).toEqual(at(before, path));
    }
  });

  it("lists every key it leaves out, with a reason, and keeps no other out", () => {
    expect(result.dropped.map((d) => d.path).sort()).toEqual([...LEFT_OUT].sort());
    for (const key of result.dropped) expect(key.reason.length).toBeGreaterThan(20);
    expect(at(after, "scrapeEndpoint")).toEqual({ enable: false, host: "0.0.0.0", port: 9842 });
  });

  it("names the source, the converter and the left-out keys in the header", () => {
    const header = result.text.slice(0, result.text.indexOf("\nService:"));
    expect(header).toMatch(
      /^# Steward configuration converted by `steward migrate-config` \(steward 15\.0\.0\)/,
    );
    expect(header).toContain("Butler SOS configuration butler-sos.yaml");
    for (const path of LEFT_OUT) expect(header).toContain(`#   ${path}: `);
    expect(header).toContain("# A complete Butler SOS configuration as a team runs it");
  });

  it("keeps comments beside the renamed keys", () => {
    expect(result.text).toMatch(
      /^ {6}serviceMemoryUsage: true # Store Butler SOS memory usage in InfluxDB$/m,
    );
    expect(result.text).toMatch(
      /^ {4}enable: false # Control whether a Docker healthcheck endpoint is started$/m,
    );
    expect(result.text).toMatch(/^ {8}enable: true # QIX performance events from the engine$/m);
    expect(result.text).toMatch(
      /^ {8}exportDirectory: audit-events\/qvd # QVD files for Qlik Sense load scripts$/m,
    );
  });

  it("renames the audit writers in destination.type and says so", () => {
    expect(at(after, "auditEvents.destination.type")).toBe("timeseriesdb,parquet,tablefile,json");
    expect(result.notes).toContainEqual({
      path: "Service.auditEvents.destination.type",
      message: expect.stringContaining("timeseriesdb,parquet,tablefile,json"),
    });
  });

  it("sends health metrics to the accounts Butler SOS used (the user-event list) when the metric list is empty", () => {
    expect(at(after, "obsPlatform.metric.destinationAccount")).toEqual(["First NR account"]);
    expect(result.notes.map((n) => n.path)).toContain("Service.obsPlatform.metric.destinationAccount");
  });

  it("switches off the listeners Butler SOS never had, and only those", () => {
    expect(at(after, "restServer")).toEqual({ enable: false });
    expect(at(after, "auditEvents.enable")).toBe(false);
    const template = (parse(migrate(butlerSosFixture("sample")).text) as { Service: unknown }).Service;
    expect(at(template, "auditEvents")).toEqual({ enable: false });
  });

  it.each([
    ["on", true],
    ["off", false],
  ])("with every section %s, gives a file the config parser accepts", (_name, on) => {
    const converted = migrate(withEverySwitch(source, on));
    const config = accepted(converted.text);
    expect(config.timeseriesdbConfig.enable).toBe(on);
    expect(config.obsPlatform.enable).toBe(on);
    expect(config.scrapeEndpoint.enable).toBe(on);
    expect(config.containerHealthCheck.enable).toBe(on);
    expect(config.platformEvents.eventCount.enable).toBe(on);
    expect(config.userEvents.enable).toBe(on);
    expect(config.logEvents.source.engineApiPerf.enable).toBe(on);
    expect(config.uptimeMonitor.storeObsPlatform.enable).toBe(on);
    expect(config.auditEvents.enable).toBe(on);
    expect(config.restServer.enable).toBe(false);
    expect(config.appNames.enableAppNameExtract).toBe(on);
    expect(config.userSessions.enableSessionExtract).toBe(on);
    expect(config.serversToMonitor.servers.map((s) => s.host)).toEqual([
      "sense1.mydomain.com:4747",
      "sense2.mydomain.com:4747",
    ]);
    if (on) {
      expect(config.userEvents.sendToTimeseriesdb.enable).toBe(true);
      expect(config.timeseriesdbConfig.v3Config.database).toBe("mydatabase");
      expect(config.thirdPartyToolsCredentials.obsPlatform.map((a) => a.accountId)).toEqual([
        "1234567",
        "7654321",
      ]);
      expect(config.logEvents.categorise.rules.map((r) => r.action)).toEqual(["categorise", "drop"]);
      expect(config.auditEvents.destination.type).toEqual(["timeseriesdb", "parquet", "tablefile", "json"]);
      expect(config.auditEvents.queue.maxSize).toBe(200);
    }
  });

  it("converts the production template as shipped: only its placeholders are left to fix", () => {
    const converted = migrate(butlerSosFixture("sample"));
    expect(converted.dropped).toEqual([]);
    const checked = checkConfigText(converted.text, "converted.yaml", {});
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.map((p) => p.path)).toEqual([
      "Service.appNames.hostIP",
      "Service.logEvents.udpServerConfig.serverHost",
      "Service.serversToMonitor.servers[0].host",
      "Service.serversToMonitor.servers[0].userSessions.host",
      "Service.serversToMonitor.servers[1].host",
      "Service.serversToMonitor.servers[1].userSessions.host",
    ]);
  });
});

describe("migrateButlerSosConfig, single rules", () => {
  const wrap = (body: string) => `Butler-SOS:\n${body}`;

  it("leaves out a key Steward has no setting for, naming where it looked", () => {
    const result = migrate(
      wrap("  influxdbConfig:\n    enable: false\n    gzip: true\n  someFutureKey: 1\n"),
    );
    expect(result.dropped).toEqual([
      {
        path: "Butler-SOS.influxdbConfig.gzip",
        reason: expect.stringContaining("Service.timeseriesdbConfig.gzip"),
      },
      { path: "Butler-SOS.someFutureKey", reason: expect.stringContaining("Service.someFutureKey") },
    ]);
    expect(result.text).not.toMatch(/^\s*(gzip|someFutureKey):/m);
  });

  it("leaves out top-level keys beside Butler-SOS", () => {
    const result = migrate("Other: 1\nButler-SOS:\n  logLevel: warn\n");
    expect(result.dropped).toEqual([{ path: "Other", reason: "not under Butler-SOS" }]);
    expect(accepted(result.text).logLevel).toBe("warn");
  });

  it("keeps user-named keys of server tags and headers", () => {
    const result = migrate(
      wrap(
        "  serversToMonitor:\n    serverTagsDefinition: [influxdb]\n    servers:\n      - host: a.example.com:4747\n        serverName: a\n        serverTags: { influxdb: x }\n        headers: { newRelic: y }\n",
      ),
    );
    expect(result.dropped).toEqual([]);
    expect(accepted(result.text).serversToMonitor.servers[0]).toMatchObject({
      serverTags: { influxdb: "x" },
      headers: { newRelic: "y" },
    });
  });

  it("replaces a maxBatchSize Butler SOS would have replaced, and says so", () => {
    const result = migrate(wrap("  influxdbConfig:\n    enable: false\n    maxBatchSize: 50000\n"));
    expect(accepted(result.text).timeseriesdbConfig.maxBatchSize).toBe(1000);
    expect(result.notes).toContainEqual({
      path: "Service.timeseriesdbConfig.maxBatchSize",
      message: expect.stringContaining("1000"),
    });
  });

  it("converts what aliases and merge keys bring in at each place they stand", () => {
    const result = migrate(
      [
        "shared: &shared",
        "  enable: true",
        "  influxdb: { enable: true, measurementName: errors }",
        "Butler-SOS:",
        "  qlikSenseEvents:",
        "    influxdb: &sink { enable: true, writeFrequency: 5000 }",
        "  errorTracking:",
        "    <<: *shared",
        "    enable: false",
        "  userEvents:",
        "    tags: &tags [{ name: env, value: prod }]",
        "  logEvents:",
        "    tags: *tags",
        "",
      ].join("\n"),
    );
    expect(result.dropped).toEqual([{ path: "shared", reason: "not under Butler-SOS" }]);
    const config = accepted(result.text);
    expect(config.errorTracking.enable).toBe(false);
    const tree = (parse(result.text) as { Service: unknown }).Service;
    expect(at(tree, "errorTracking.timeseriesdb")).toEqual({ enable: true, measurementName: "errors" });
    expect(at(tree, "platformEvents.timeseriesdb")).toEqual({ enable: true, writeFrequency: 5000 });
    expect(at(tree, "logEvents.tags")).toEqual([{ name: "env", value: "prod" }]);
  });

  it("points out what works differently when the source turns it on", () => {
    const result = migrate(wrap("  prometheus:\n    enable: true\n    host: 127.0.0.1\n"));
    expect(result.notes).toContainEqual({
      path: "Butler-SOS.prometheus.enable",
      message: expect.stringContaining("steward_"),
    });
  });

  it("describes the uptime monitor's settings as what this version does with them", () => {
    const result = migrate(
      wrap(
        "  uptimeMonitor:\n    enable: true\n    storeInInfluxdb:\n      butlerSOSMemoryUsage: true\n    storeNewRelic:\n      enable: true\n",
      ),
    );
    const uptimeNotes = result.notes.filter((note) => note.path.startsWith("Butler-SOS.uptimeMonitor."));
    expect(uptimeNotes.map((note) => note.path)).toEqual([
      "Butler-SOS.uptimeMonitor.storeInInfluxdb.butlerSOSMemoryUsage",
      "Butler-SOS.uptimeMonitor.storeNewRelic.enable",
    ]);
    expect(uptimeNotes[0]?.message).toContain("steward_memory_usage");
    expect(uptimeNotes[1]?.message).toContain("obsPlatform.enable");
    for (const note of uptimeNotes)
      expect(note.message).not.toMatch(/does not run|not run by this version|yet\b/);
  });

  it.each([
    ["a YAML syntax error", "Butler-SOS:\n  logLevel: [\n", /^YAML syntax error at line \d+, column \d+: /],
    ["a file without Butler-SOS", "Foo: {}\n", /top-level key Butler-SOS is missing/],
    ["a Steward configuration", "Service: {}\n", /already a Steward configuration/],
    ["an empty file", "", /not a YAML mapping|empty/],
  ])("refuses %s", (_name, text, message) => {
    const result = migrateButlerSosConfig(text, OPTIONS);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});
