import { describe, expect, it } from "vitest";
import { floatField, integerField } from "../../../../core/shared/line-protocol.ts";
import { createEventCounts } from "../../../../core/udp/event-counts.ts";
import {
  createLogEventProcessor,
  type LogEventProcessorDeps,
} from "../../../../core/udp/log-event-processor.ts";
import { createRejectedEventCounts } from "../../../../core/udp/rejected-event-counts.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import {
  appNames,
  bytes,
  ENGINE,
  logEventsConfig,
  obsPlatformConfig,
  PERF_APP_ID,
  PROXY,
  platformEventsConfig,
  QIX_PERF,
  qixPerf,
  REPOSITORY,
  recordingDestinations,
  SCHEDULER,
} from "./udp-fixtures.ts";

const RECEIVED = Date.UTC(2026, 0, 1, 12);
const ALL_SOURCES = {
  engine: { enable: true },
  proxy: { enable: true },
  repository: { enable: true },
  scheduler: { enable: true },
  engineApiPerf: { enable: true },
};
const MONITOR_ALL = {
  enable: true,
  appNameLookup: { enable: true },
  trackRejectedEvents: { enable: true },
  monitorFilter: { allApps: { enable: true } },
};

function setup(logEvents: Record<string, unknown> = {}, overrides: Partial<LogEventProcessorDeps> = {}) {
  const destinations = recordingDestinations();
  const logger = recordingLogger();
  const config = logEventsConfig({
    source: ALL_SOURCES,
    sendToTimeseriesdb: { enable: true },
    sendToMQTT: { enable: true },
    sendToObsPlatform: { enable: true },
    enginePerformanceMonitor: MONITOR_ALL,
    ...logEvents,
  });
  const platformEvents = platformEventsConfig({
    eventCount: { enable: true },
    rejectedEventCount: { enable: true },
  });
  const eventCounts = createEventCounts({ version: 3, platformEvents });
  const rejectedEventCounts = createRejectedEventCounts({
    version: 3,
    platformEvents,
    trackRejectedEvents: config.enginePerformanceMonitor.trackRejectedEvents,
  });
  const process = createLogEventProcessor({
    logEvents: config,
    timeseriesdbConfig: { enable: true, version: 3 },
    mqttConfig: { enable: true },
    obsPlatform: obsPlatformConfig({ enable: true }),
    appNames: appNames({ [PERF_APP_ID]: "Sales" }),
    eventCounts,
    rejectedEventCounts,
    destinations,
    logger,
    clock: createManualClock(),
    serviceVersion: "15.0.0-test",
    ...overrides,
  });
  const counted = () =>
    eventCounts.take(0).points.map((p) => [p.tags.source, p.tags.host, p.tags.subsystem, p.fields.counter]);
  const rejected = () => rejectedEventCounts.take(0).points;
  return { process, destinations, logger, counted, rejected };
}

describe("createLogEventProcessor: processing and writing", () => {
  it("processes an engine event into a point at its own time, broker messages and an observability event", async () => {
    const { process, destinations, counted } = setup();

    const outcome = await process(bytes(ENGINE), RECEIVED, "10.0.0.1");

    expect(outcome).toBe("processed");
    expect(destinations.calls).toEqual(["writePoints:1", "writeMessages:2", "writeEvents:1"]);
    expect(destinations.points[0]?.timestampMs).toBe(Date.UTC(2021, 10, 9, 13, 37, 26, 28));
    expect(destinations.events[0]?.timestamp).toBe(Date.UTC(2021, 10, 9, 13, 37, 26, 28));
    expect(counted()).toEqual([["qseow-engine", "host1", "sub1", integerField(1)]]);
  });

  it.each([
    ["engine", ENGINE, "qseow-engine"],
    ["proxy", PROXY, "qseow-proxy"],
    ["repository", REPOSITORY, "qseow-repository"],
    ["scheduler", SCHEDULER, "qseow-scheduler"],
    ["engine API performance", QIX_PERF, "qseow-qix-perf"],
  ])("writes a %s event as log_event with source %s", async (_name, text, source) => {
    const { process, destinations } = setup();

    expect(await process(bytes(text), RECEIVED)).toBe("processed");
    expect(destinations.points[0]).toMatchObject({ measurement: "log_event", tags: { source } });
  });

  it("uses the receive time when ts_iso does not parse", async () => {
    const { process, destinations } = setup();

    await process(bytes(ENGINE.replace("20211109T153726.028+0200", "soon")), RECEIVED);

    expect(destinations.points[0]?.timestampMs).toBe(RECEIVED);
  });

  it("keeps surplus ; inside the message end to end", async () => {
    const { process, destinations } = setup();

    await process(bytes(PROXY.replace(";Session ended;", ";Session; ended;")), RECEIVED);

    expect(JSON.parse(destinations.messages[0]?.payload ?? "")).toMatchObject({
      message: "Session; ended",
      context: "/hub",
    });
  });

  it("drops an event a drop rule matches before every destination, still counting it", async () => {
    const { process, destinations, counted } = setup({
      categorise: {
        enable: true,
        rules: [{ logLevel: ["warn"], action: "drop", filter: [{ type: "sw", value: "message" }] }],
      },
    });

    const outcome = await process(bytes(ENGINE), RECEIVED);

    expect(outcome).toBe("dropped_by_rule");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([["qseow-engine", "host1", "sub1", integerField(1)]]);
  });

  it("adds the categories of matching rules as tags and to the payload", async () => {
    const { process, destinations } = setup({
      categorise: {
        enable: true,
        rules: [
          {
            logLevel: ["error"],
            category: [{ name: "qs_log_category", value: "reload" }],
            filter: [{ type: "so", value: "Reload failed" }],
          },
        ],
      },
    });

    await process(bytes(SCHEDULER), RECEIVED);

    expect(destinations.points[0]?.tags.qs_log_category).toBe("reload");
    expect(JSON.parse(destinations.messages[0]?.payload ?? "").category).toEqual([
      { name: "qs_log_category", value: "reload" },
    ]);
  });

  it("sends no observability event for a level or source not selected", async () => {
    const { process, destinations } = setup();

    await process(bytes(QIX_PERF), RECEIVED);
    await process(bytes(ENGINE.replace(";WARN;", ";FATAL;")), RECEIVED);

    expect(destinations.calls.filter((c) => c.startsWith("writeEvents"))).toEqual([]);
    expect(destinations.points).toHaveLength(2);
  });

  it.each([
    ["the event's time-series switch", { sendToTimeseriesdb: { enable: false } }, {}, "writePoints"],
    [
      "the time-series master switch",
      {},
      { timeseriesdbConfig: { enable: false, version: 3 } },
      "writePoints",
    ],
    ["the event's broker switch", { sendToMQTT: { enable: false } }, {}, "writeMessages"],
    ["the broker master switch", {}, { mqttConfig: { enable: false } }, "writeMessages"],
    ["the event's observability switch", { sendToObsPlatform: { enable: false } }, {}, "writeEvents"],
    [
      "the observability master switch",
      {},
      { obsPlatform: obsPlatformConfig({ enable: false }) },
      "writeEvents",
    ],
  ])("does not call a destination when %s is off", async (_case, logEvents, deps, destination) => {
    const { process, destinations } = setup(logEvents, deps as Partial<LogEventProcessorDeps>);

    await process(bytes(ENGINE), RECEIVED);

    expect(destinations.calls.map((c) => c.split(":")[0])).not.toContain(destination);
    expect(destinations.calls).toHaveLength(2);
  });
});

describe("createLogEventProcessor: counting, the performance monitor and malformed events", () => {
  it("counts an event of a disabled source under that source and writes nothing", async () => {
    const { process, destinations, counted } = setup({
      source: { ...ALL_SOURCES, proxy: { enable: false } },
    });

    const outcome = await process(bytes(PROXY), RECEIVED);

    expect(outcome).toBe("processed");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([
      ["qseow-proxy", "host1", "Audit.Proxy.Proxy.SessionManagement", integerField(1)],
    ]);
  });

  it("counts an engine API performance event while the monitor is off and writes nothing", async () => {
    const { process, destinations, counted, rejected } = setup({
      enginePerformanceMonitor: { enable: false },
    });

    expect(await process(bytes(QIX_PERF), RECEIVED)).toBe("processed");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([
      ["qseow-qix-perf", "qs-node1", "QixPerformance.Engine.Engine", integerField(1)],
    ]);
    expect(rejected()).toEqual([]);
  });

  it("tracks a performance event the monitor rejects, counting it and writing nothing", async () => {
    const { process, destinations, counted, rejected } = setup({
      enginePerformanceMonitor: {
        ...MONITOR_ALL,
        monitorFilter: { allApps: { enable: true, appExclude: [{ appName: "Sales" }] } },
      },
    });

    expect(await process(bytes(QIX_PERF), RECEIVED)).toBe("processed");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toHaveLength(1);
    expect(rejected()).toEqual([
      expect.objectContaining({
        tags: expect.objectContaining({
          app_id: PERF_APP_ID,
          app_name: "Sales",
          method: "Doc::GetAppLayout",
        }),
        fields: { counter: integerField(1), process_time: floatField(12.5) },
      }),
    ]);
  });

  it("looks app names of performance events up only when appNameLookup is on", async () => {
    const withLookup = setup();
    const withoutLookup = setup({
      enginePerformanceMonitor: { ...MONITOR_ALL, appNameLookup: { enable: false } },
    });

    await withLookup.process(bytes(QIX_PERF), RECEIVED);
    await withoutLookup.process(bytes(QIX_PERF), RECEIVED);

    expect(withLookup.destinations.points[0]?.tags.app_name).toBe("Sales");
    expect(withoutLookup.destinations.points[0]?.tags.app_name).toBeUndefined();
  });

  it("marks a performance event of a user session as user activity", async () => {
    const { process, destinations } = setup();

    await process(bytes(qixPerf({ 8: "f00dfeed" })), RECEIVED);

    expect(destinations.points[0]?.tags.event_activity_source).toBe("user");
  });

  it("counts an unknown marker as unknown ×3 and warns", async () => {
    const { process, destinations, logger, counted } = setup();

    expect(
      await process(bytes("/qseow-proxy-session/;h;Start session;D;U;O;C;M"), RECEIVED, "10.0.0.7"),
    ).toBe("unknown_marker");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([["unknown", "unknown", "unknown", integerField(1)]]);
    expect(logger.at("warn")[0]?.fields?.sender).toBe("10.0.0.7");
  });

  it("warns about an unknown marker even right after a malformed datagram from the same sender", async () => {
    const { process, logger } = setup();

    await process(bytes(ENGINE.split(";").slice(0, 10).join(";")), RECEIVED, "10.0.0.7");
    await process(bytes("/qseow-proxy-session/;h;Start session;D;U;O;C;M"), RECEIVED, "10.0.0.7");
    await process(bytes("/qseow-unknown/;h;x"), RECEIVED, "10.0.0.7");

    expect(logger.at("warn").map((e) => [e.message, e.fields?.sender])).toEqual([
      ["UDP log event ignored: its fields do not fit its layout", "10.0.0.7"],
      ["UDP log event ignored: unknown marker", "10.0.0.7"],
    ]);
  });

  it("rejects a short log event as malformed, not counting it", async () => {
    const { process, destinations, logger, counted } = setup();

    expect(await process(bytes(ENGINE.split(";").slice(0, 10).join(";")), RECEIVED)).toBe("malformed");
    expect(destinations.calls).toEqual([]);
    expect(counted()).toEqual([]);
    expect(logger.at("warn")[0]?.fields).toMatchObject({ source: "qseow-engine", expectedFields: 19 });
  });

  it("rejects a performance event with surplus fields as malformed", async () => {
    const { process } = setup();

    expect(await process(bytes(`${QIX_PERF};x`), RECEIVED)).toBe("malformed");
  });
});
