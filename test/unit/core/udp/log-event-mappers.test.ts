import { describe, expect, it } from "vitest";
import { floatField, integerField, stringField } from "../../../../core/shared/line-protocol.ts";
import { applyLayout, splitFields } from "../../../../core/udp/apply-layout.ts";
import type { Category } from "../../../../core/udp/categorise.ts";
import { LOG_SOURCES, type LogEvent } from "../../../../core/udp/log-event.ts";
import { createLogEventMessageMapper, subsystemPath } from "../../../../core/udp/log-event-messages.ts";
import { createLogEventObservabilityMapper } from "../../../../core/udp/log-event-observability.ts";
import {
  createLogEventPointMapper,
  type LogEventPointOptions,
} from "../../../../core/udp/log-event-point.ts";
import { normaliseUser } from "../../../../core/udp/user-full.ts";
import { SERVICE_VERSION } from "../../../../core/version.ts";
import {
  ENGINE,
  logEventsConfig,
  obsPlatformConfig,
  PERF_APP_ID,
  PROXY,
  QIX_PERF,
  qixPerf,
  REPOSITORY,
  SCHEDULER,
  SESSION_ID,
  UUID,
} from "./udp-fixtures.ts";

const AT = Date.UTC(2026, 0, 1, 12);

/** Parses a log datagram and completes it as the processor does. */
function logEvent(text: string, category: readonly Category[] = []): LogEvent {
  const layout = LOG_SOURCES.find((s) => text.toLowerCase().startsWith(s.layout.marker))?.layout;
  if (layout === undefined) throw new Error("unknown marker");
  const event = applyLayout(layout, splitFields(text, layout) ?? []) as unknown as LogEvent;
  if (event.source === "qseow-qix-perf") {
    event.app_name = "Sales";
    event.event_activity_source = event.proxy_session_id === "0" ? "non-user" : "user";
  }
  event.user_full = normaliseUser(event, event.source === "qseow-scheduler" ? event.user_full : "");
  event.category = category;
  return event;
}

const pointOf = (
  event: LogEvent,
  options: LogEventPointOptions = { tags: [], categoryNames: [], version: 3 },
) => createLogEventPointMapper(options)(event, JSON.stringify(event), AT);

/** The point on a given database version, without configured tags or categories. */
const pointOn = (version: 1 | 2 | 3, event: LogEvent) =>
  pointOf(event, { tags: [], categoryNames: [], version });

describe("createLogEventPointMapper: each log source", () => {
  it("maps an engine event: common tags, engine tags when set, Butler SOS's fields (3.x names), raw_event", () => {
    const event = logEvent(ENGINE);

    expect(pointOf(event)).toEqual({
      measurement: "log_event",
      tags: {
        host: "host1",
        level: "WARN",
        source: "qseow-engine",
        log_row: "1",
        subsystem: "sub1",
        user_full: "dir1\\uid1",
        user_directory: "dir1",
        user_id: "uid1",
        windows_user: "user1",
        app_id: UUID,
        engine_exe_version: "v1",
      },
      fields: {
        message: stringField("message1"),
        exception_message: stringField(""),
        command: stringField(""),
        result_code_field: stringField(""),
        origin: stringField(""),
        context: stringField(""),
        session_id_field: stringField(UUID),
        raw_event: stringField(JSON.stringify(event)),
      },
      timestampMs: AT,
    });
  });

  it("maps a proxy event with result_code as tag and, on InfluxDB 3.x, result_code_field", () => {
    const point = pointOf(logEvent(PROXY));

    expect(point.tags).toEqual({
      host: "host1",
      level: "WARN",
      source: "qseow-proxy",
      log_row: "5",
      subsystem: "Audit.Proxy.Proxy.SessionManagement",
      user_full: "LAB\\goran",
      user_directory: "LAB",
      user_id: "goran",
      result_code: "201",
    });
    expect(Object.keys(point.fields)).toEqual([
      "message",
      "exception_message",
      "command",
      "result_code_field",
      "origin",
      "context",
      "raw_event",
    ]);
    expect(point.fields.result_code_field).toEqual(stringField("201"));
  });

  it("maps a repository event, leaving out empty user tags", () => {
    const point = pointOf(logEvent(REPOSITORY));

    expect(point.tags).toEqual({
      host: "host3",
      level: "ERROR",
      source: "qseow-repository",
      log_row: "7",
      subsystem: "System.Repository.Repository.Core",
      result_code: "500",
    });
  });

  it("maps a scheduler event with task tags and, on InfluxDB 3.x, app_name_field / app_id_field", () => {
    const point = pointOf(logEvent(SCHEDULER));

    expect(point.tags).toMatchObject({
      source: "qseow-scheduler",
      user_full: "LAB\\goran",
      task_id: "dec2a02a-1680-44ef-8dc2-e2bfb180af87",
      task_name: "Manually triggered reload of Test failing reloads 2",
    });
    expect(point.fields).toMatchObject({
      message: stringField(
        "Message from ReloadProvider: Reload failed in Engine. Check engine or script logs.",
      ),
      exception_message: stringField(""),
      app_name_field: stringField("Test failing reloads 2"),
      app_id_field: stringField("e7af59a0-c243-480d-9571-08727551a66f"),
      execution_id: stringField("4831c6a5-34f6-45bb-9d40-73a6e6992670"),
    });
  });
});

describe("createLogEventPointMapper: engine API performance events", () => {
  it("maps an engine API performance event with its always-present tags and numeric fields (3.x)", () => {
    const event = logEvent(QIX_PERF);

    expect(pointOf(event)).toEqual({
      measurement: "log_event",
      tags: {
        host: "qs-node1",
        level: "INFO",
        source: "qseow-qix-perf",
        log_row: "1523",
        subsystem: "QixPerformance.Engine.Engine",
        user_full: "INTERNAL\\sa_scheduler",
        user_directory: "INTERNAL",
        user_id: "sa_scheduler",
        app_id: PERF_APP_ID,
        app_name: "Sales",
        object_id: "<Unknown>",
        method: "Doc::GetAppLayout",
        object_type: "<Unknown>",
        proxy_session_id: "0",
        session_id: SESSION_ID,
        event_activity_source: "non-user",
      },
      fields: {
        app_id_field: stringField(PERF_APP_ID),
        process_time: floatField(12.5),
        work_time: floatField(11.2),
        lock_time: floatField(0.1),
        validate_time: floatField(0.3),
        traverse_time: floatField(0.9),
        handle: integerField(1),
        net_ram: integerField(123456),
        peak_ram: integerField(234567),
        raw_event: stringField(JSON.stringify(event)),
      },
      timestampMs: AT,
    });
  });

  it("gives empty always-present performance tags their defaults and leaves out unparsed times", () => {
    const point = pointOf(logEvent(qixPerf({ 8: "", 12: "bad", 15: "", 16: "NaN", 25: "" })));

    expect(point.tags).toMatchObject({
      method: "<Unknown>",
      object_type: "<Unknown>",
      proxy_session_id: "-1",
      session_id: "-1",
      event_activity_source: "user",
    });
    expect(point.fields.process_time).toBeUndefined();
    expect(point.fields.work_time).toEqual(floatField(11.2));
  });
});

describe("createLogEventPointMapper: tags and field names per InfluxDB version", () => {
  it("adds category tags and configured tags, the event's own tags winning", () => {
    const event = logEvent(PROXY, [
      { name: "qs_log_category", value: "session" },
      { name: "host", value: "from-category" },
    ]);

    const point = pointOf(event, {
      tags: [
        { name: "env", value: "prod" },
        { name: "qs_log_category", value: "configured" },
      ],
      categoryNames: ["qs_log_category", "host"],
      version: 3,
    });

    expect(point.tags).toMatchObject({ env: "prod", qs_log_category: "session", host: "host1" });
  });

  it("renames, on InfluxDB 3.x only, a field that a configured tag or category shares a name with", () => {
    const options = { tags: [{ name: "message", value: "x" }], categoryNames: ["origin"] };

    const v3 = pointOf(logEvent(PROXY), { ...options, version: 3 });
    const v1 = pointOf(logEvent(PROXY), { ...options, version: 1 });
    const v2 = pointOf(logEvent(PROXY), { ...options, version: 2 });

    expect(Object.keys(v3.fields)).toContain("message_field");
    expect(Object.keys(v3.fields)).toContain("origin_field");
    expect(Object.keys(v1.fields)).toEqual(expect.arrayContaining(["message", "origin"]));
    expect(Object.keys(v2.fields)).toEqual(expect.arrayContaining(["message", "origin"]));
  });

  it("names and types the fields as Butler SOS did on InfluxDB 1.x: no _field names, handle an integer", () => {
    const engine = pointOn(1, logEvent(ENGINE));
    const proxy = pointOn(1, logEvent(PROXY));
    const scheduler = pointOn(1, logEvent(SCHEDULER));
    const perf = pointOn(1, logEvent(QIX_PERF));

    expect(Object.keys(engine.fields)).toEqual([
      "message",
      "exception_message",
      "command",
      "result_code",
      "origin",
      "context",
      "session_id",
      "raw_event",
    ]);
    expect(proxy.fields.result_code).toEqual(stringField("201"));
    expect(scheduler.fields).toMatchObject({
      app_name: stringField("Test failing reloads 2"),
      app_id: stringField("e7af59a0-c243-480d-9571-08727551a66f"),
    });
    expect(perf.fields).toMatchObject({
      app_id: stringField(PERF_APP_ID),
      process_time: floatField(12.5),
      handle: integerField(1),
      net_ram: integerField(123456),
    });
    for (const point of [engine, proxy, scheduler, perf]) {
      expect(Object.keys(point.fields).filter((name) => name.endsWith("_field"))).toEqual([]);
    }
  });

  it("names and types the fields as Butler SOS did on InfluxDB 2.x: result_code_field, handle a string", () => {
    const engine = pointOn(2, logEvent(ENGINE));
    const scheduler = pointOn(2, logEvent(SCHEDULER));
    const perf = pointOn(2, logEvent(QIX_PERF));

    expect(Object.keys(engine.fields)).toEqual([
      "message",
      "exception_message",
      "command",
      "result_code_field",
      "origin",
      "context",
      "session_id",
      "raw_event",
    ]);
    expect(pointOn(2, logEvent(PROXY)).fields.result_code_field).toEqual(stringField("201"));
    expect(scheduler.fields).toMatchObject({
      app_name: stringField("Test failing reloads 2"),
      app_id: stringField("e7af59a0-c243-480d-9571-08727551a66f"),
    });
    expect(perf.fields).toMatchObject({
      app_id: stringField(PERF_APP_ID),
      process_time: floatField(12.5),
      handle: stringField("1"),
      net_ram: integerField(123456),
      peak_ram: integerField(234567),
    });
  });
});

describe("createLogEventMessageMapper", () => {
  const config = (postTo: Record<string, unknown>, baseTopic = "qliksense/logevent") =>
    logEventsConfig({
      sendToMQTT: { enable: true, baseTopic, postTo },
      tags: [{ name: "env", value: "prod" }],
    });

  it("publishes the event with its tags to the base topic and the subsystem topic", () => {
    const event = logEvent(SCHEDULER, [{ name: "c", value: "1" }]);
    const messages = createLogEventMessageMapper(config({}))(event, JSON.stringify(event));

    expect(messages.map((m) => m.topic)).toEqual([
      "qliksense/logevent",
      "qliksense/logevent/system/scheduler/scheduler/slave/tasks/reloadtask",
    ]);
    expect(JSON.parse(messages[0]?.payload ?? "")).toEqual({
      ...JSON.parse(JSON.stringify(event)),
      category: [{ name: "c", value: "1" }],
      tags: { env: "prod" },
    });
  });

  it("does not double the slash of a base topic that ends with one", () => {
    const event = logEvent(PROXY);
    const messages = createLogEventMessageMapper(config({ baseTopic: false }, "logs/"))(
      event,
      JSON.stringify(event),
    );

    expect(messages.map((m) => m.topic)).toEqual(["logs/audit/proxy/proxy/sessionmanagement"]);
  });

  it("honours the postTo switches", () => {
    const event = logEvent(PROXY);
    const messages = createLogEventMessageMapper(config({ subsystemTopics: false }))(
      event,
      JSON.stringify(event),
    );

    expect(messages.map((m) => m.topic)).toEqual(["qliksense/logevent"]);
  });

  it("skips a subsystem topic that would be empty or hold wildcards", () => {
    expect(subsystemPath("")).toBeUndefined();
    expect(subsystemPath("a.#")).toBeUndefined();
    expect(subsystemPath("a+b")).toBeUndefined();
    expect(subsystemPath("A.Bc")).toBe("a/bc");
  });
});

describe("createLogEventObservabilityMapper", () => {
  const mapper = (source: Record<string, unknown> = {}, obs: Record<string, unknown> = {}) =>
    createLogEventObservabilityMapper({
      logEvents: logEventsConfig({
        sendToObsPlatform: { enable: true, source },
        tags: [{ name: "env", value: "prod" }],
      }),
      obsPlatform: obsPlatformConfig(obs),
      serviceVersion: SERVICE_VERSION,
    });

  it("maps a scheduler error to qs_logEvent with qs_ attributes, tags, static attributes and version", () => {
    const toEvent = mapper({}, { event: { attribute: { static: [{ name: "team", value: "bi" }] } } });

    expect(toEvent(logEvent(SCHEDULER), AT)).toEqual({
      eventType: "qs_logEvent",
      timestamp: AT,
      attributes: [
        { name: "qs_ts_iso", value: "20211109T193744.331+0100" },
        { name: "qs_ts_local", value: "2021-11-09 19:37:44,331" },
        { name: "qs_log_source", value: "qseow-scheduler" },
        { name: "qs_log_level", value: "ERROR" },
        { name: "qs_host", value: "qs-node1" },
        { name: "qs_subsystem", value: "System.Scheduler.Scheduler.Slave.Tasks.ReloadTask" },
        { name: "qs_windows_user", value: "COMPANY\\qlikservice" },
        {
          name: "qs_message",
          value: "Message from ReloadProvider: Reload failed in Engine. Check engine or script logs.",
        },
        { name: "qs_user_full", value: "LAB\\goran" },
        { name: "qs_user_directory", value: "LAB" },
        { name: "qs_user_id", value: "goran" },
        { name: "qs_task_name", value: "Manually triggered reload of Test failing reloads 2" },
        { name: "qs_app_name", value: "Test failing reloads 2" },
        { name: "qs_task_id", value: "dec2a02a-1680-44ef-8dc2-e2bfb180af87" },
        { name: "qs_app_id", value: "e7af59a0-c243-480d-9571-08727551a66f" },
        { name: "qs_execution_id", value: "4831c6a5-34f6-45bb-9d40-73a6e6992670" },
        { name: "env", value: "prod" },
        { name: "team", value: "bi" },
        { name: "serviceVersion", value: SERVICE_VERSION },
      ],
    });
  });

  it("leaves out the version when its attribute is disabled", () => {
    const toEvent = mapper({}, { event: { attribute: { dynamic: { serviceVersion: { enable: false } } } } });

    const names = toEvent(logEvent(PROXY), AT)?.attributes.map((a) => a.name);

    expect(names).not.toContain("serviceVersion");
  });

  it("sends warn and error only, per source and level flag; never fatal or performance events", () => {
    const toEvent = mapper({ proxy: { logLevel: { warn: false } }, repository: { enable: false } });

    expect(toEvent(logEvent(PROXY), AT)).toBeUndefined();
    expect(toEvent(logEvent(PROXY.replace(";WARN;", ";error;")), AT)?.eventType).toBe("qs_logEvent");
    expect(toEvent(logEvent(REPOSITORY), AT)).toBeUndefined();
    expect(toEvent(logEvent(ENGINE), AT)?.eventType).toBe("qs_logEvent");
    expect(toEvent(logEvent(ENGINE.replace(";WARN;", ";FATAL;")), AT)).toBeUndefined();
    expect(toEvent(logEvent(qixPerf({ 4: "ERROR" })), AT)).toBeUndefined();
  });
});
