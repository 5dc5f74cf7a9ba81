import { describe, expect, it } from "vitest";
import { defaultConfig, parseConfig } from "../../../../core/config/index.ts";
import { enabledSwitchesWithoutEffect } from "../../../../local/cli/unused-switches.ts";

describe("enabledSwitchesWithoutEffect", () => {
  it("finds nothing in the embedded default config or a minimal file", () => {
    expect(enabledSwitchesWithoutEffect(defaultConfig())).toEqual([]);
    const minimal = parseConfig({ Service: {} });
    if (!minimal.ok) throw new Error("minimal config must parse");
    expect(enabledSwitchesWithoutEffect(minimal.config)).toEqual([]);
  });

  it("names every enabled destination switch that no enabled part uses", () => {
    const base = defaultConfig();
    const config = {
      ...base,
      configVisualisation: { ...base.configVisualisation, enable: true },
      timeseriesdbConfig: { ...base.timeseriesdbConfig, enable: true },
      obsPlatform: { ...base.obsPlatform, enable: true },
    };
    expect(enabledSwitchesWithoutEffect(config)).toEqual([
      "Service.timeseriesdbConfig.enable",
      "Service.obsPlatform.enable",
    ]);
  });

  it("does not name the self-monitoring switches: heartbeat, uptime, health check, errors and telemetry run", () => {
    const base = defaultConfig();
    const config = {
      ...base,
      anonTelemetry: true,
      heartbeat: { ...base.heartbeat, enable: true },
      containerHealthCheck: { ...base.containerHealthCheck, enable: true },
      uptimeMonitor: { ...base.uptimeMonitor, enable: true },
      errorTracking: { ...base.errorTracking, enable: true },
    };
    expect(enabledSwitchesWithoutEffect(config)).toEqual([]);
  });

  it("does not name the time-series switch when the uptime monitor or error tracking write there", () => {
    const base = defaultConfig();
    const series = { ...base.timeseriesdbConfig, enable: true };
    const uptime = {
      ...base,
      timeseriesdbConfig: series,
      uptimeMonitor: { ...base.uptimeMonitor, enable: true },
    };
    const errors = {
      ...base,
      timeseriesdbConfig: series,
      errorTracking: { ...base.errorTracking, enable: true },
    };
    expect(enabledSwitchesWithoutEffect(uptime)).toEqual([]);
    expect(enabledSwitchesWithoutEffect(errors)).toEqual([]);
  });

  it("does not name the time-series switch when the audit pipeline writes there", () => {
    const base = defaultConfig();
    const series = { ...base.timeseriesdbConfig, enable: true };
    const destination = {
      ...base,
      timeseriesdbConfig: series,
      auditEvents: {
        ...base.auditEvents,
        enable: true,
        destination: { ...base.auditEvents.destination, enable: true, type: ["timeseriesdb" as const] },
      },
    };
    const queueMetrics = {
      ...base,
      timeseriesdbConfig: series,
      auditEvents: {
        ...base.auditEvents,
        enable: true,
        queue: {
          ...base.auditEvents.queue,
          queueMetrics: {
            ...base.auditEvents.queue.queueMetrics,
            timeseriesdb: { ...base.auditEvents.queue.queueMetrics.timeseriesdb, enable: true },
          },
        },
      },
    };
    expect(enabledSwitchesWithoutEffect(destination)).toEqual([]);
    expect(enabledSwitchesWithoutEffect(queueMetrics)).toEqual([]);
  });

  it("still names the time-series switch when the audit pipeline writes elsewhere", () => {
    const base = defaultConfig();
    const config = {
      ...base,
      timeseriesdbConfig: { ...base.timeseriesdbConfig, enable: true },
      auditEvents: {
        ...base.auditEvents,
        enable: true,
        destination: { ...base.auditEvents.destination, enable: true, type: ["parquet" as const] },
      },
    };
    expect(enabledSwitchesWithoutEffect(config)).toEqual(["Service.timeseriesdbConfig.enable"]);
  });

  it("does not name the config UI's switch: the config UI and status page run", () => {
    const base = defaultConfig();
    const config = { ...base, configVisualisation: { ...base.configVisualisation, enable: true } };
    expect(enabledSwitchesWithoutEffect(config)).toEqual([]);
  });

  it("does not name the scrape endpoint's switch: the scrape endpoint runs", () => {
    const base = defaultConfig();
    const config = { ...base, scrapeEndpoint: { ...base.scrapeEndpoint, enable: true } };

    expect(enabledSwitchesWithoutEffect(config)).toEqual([]);
  });

  it("does not name appNames.enableAppNameExtract: the agent runs the app-name poller", () => {
    const base = defaultConfig();
    const config = {
      ...base,
      appNames: { ...base.appNames, enableAppNameExtract: true, hostIP: "sense.example.com" },
    };
    expect(enabledSwitchesWithoutEffect(config)).toEqual([]);
  });

  it("does not name the UDP event switches, nor the destinations' switches once a UDP pipeline runs", () => {
    const base = defaultConfig();
    const config = {
      ...base,
      userEvents: { ...base.userEvents, enable: true },
      logEvents: { ...base.logEvents, source: { ...base.logEvents.source, proxy: { enable: true } } },
      timeseriesdbConfig: { ...base.timeseriesdbConfig, enable: true },
      obsPlatform: { ...base.obsPlatform, enable: true },
    };
    expect(enabledSwitchesWithoutEffect(config)).toEqual([]);
  });

  it("does not name the polling switches, nor the destinations' switches, once servers are polled", () => {
    const base = defaultConfig();
    const config = {
      ...base,
      userSessions: { ...base.userSessions, enableSessionExtract: true },
      serversToMonitor: {
        ...base.serversToMonitor,
        servers: [{} as (typeof base.serversToMonitor.servers)[number]],
      },
      timeseriesdbConfig: { ...base.timeseriesdbConfig, enable: true },
      obsPlatform: { ...base.obsPlatform, enable: true },
    };
    expect(enabledSwitchesWithoutEffect(config)).toEqual([]);
  });
});

describe("enabledSwitchesWithoutEffect and the licence monitor", () => {
  it("does not name the time-series switch when the licence monitor writes there, and names it when it does not", () => {
    const base = defaultConfig();
    const series = { ...base.timeseriesdbConfig, enable: true };
    const monitor = { ...base.licenseMonitor, enable: true };
    const writing = { ...base, timeseriesdbConfig: series, licenseMonitor: monitor };
    const notWriting = {
      ...writing,
      licenseMonitor: { ...monitor, timeseriesdb: { ...monitor.timeseriesdb, enable: false } },
    };
    expect(enabledSwitchesWithoutEffect(writing)).toEqual([]);
    expect(enabledSwitchesWithoutEffect(notWriting)).toEqual(["Service.timeseriesdbConfig.enable"]);
  });
});
