import { describe, expect, it } from "vitest";
import { applyLayout, parseDecimal, parseInteger, splitFields } from "../../../../core/udp/apply-layout.ts";
import {
  ENGINE_LAYOUT,
  type Layout,
  PROXY_LAYOUT,
  QIX_PERF_LAYOUT,
  REPOSITORY_LAYOUT,
  SCHEDULER_LAYOUT,
  USER_CONNECTION_LAYOUT,
  USER_SESSION_LAYOUT,
} from "../../../../core/udp/field-layouts.ts";
import {
  APP_ID,
  ENGINE,
  PERF_APP_ID,
  PROXY,
  QIX_PERF,
  qixPerf,
  REPOSITORY,
  SCHEDULER,
  SESSION_ID,
  USER_CONNECTION,
  USER_SESSION,
  UUID,
} from "./udp-fixtures.ts";

function parse<L extends Layout>(layout: L, text: string) {
  const parts = splitFields(text, layout);
  if (parts === undefined) throw new Error("did not fit the layout");
  return applyLayout(layout, parts);
}

describe("field layouts", () => {
  it.each([
    [USER_SESSION_LAYOUT, 8],
    [USER_CONNECTION_LAYOUT, 8],
    [ENGINE_LAYOUT, 19],
    [PROXY_LAYOUT, 16],
    [REPOSITORY_LAYOUT, 16],
    [SCHEDULER_LAYOUT, 18],
    [QIX_PERF_LAYOUT, 26],
  ])("%# has the field count of Butler SOS's layout for that source", (layout, count) => {
    expect(layout.fields.length + 1).toBe(count);
  });
});

describe("the user event layout", () => {
  it("parses example 1, re-joining the message after the 7th ;", () => {
    const record = parse(USER_CONNECTION_LAYOUT, USER_CONNECTION);

    expect(record).toEqual({
      source: "qseow-proxy-connection",
      host: "pro2-win1",
      command: "Close connection",
      user_directory: "userdir",
      user_id: "user3",
      origin: "AppAccess",
      context: `/app/${APP_ID}?reloaduri=https...`,
      message:
        "Some text UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'",
    });
  });

  it("parses example 2", () => {
    const record = parse(USER_SESSION_LAYOUT, USER_SESSION);

    expect(record.source).toBe("qseow-proxy-session");
    expect(record.command).toBe("Stop session");
    expect(record.message).toBe("UserAgent: Chrome/91.0");
  });

  it("rejects a datagram with fewer than 8 fields", () => {
    expect(
      splitFields("/qseow-proxy-session/;host2;Stop session;INTERNAL;u;o;ctx", USER_SESSION_LAYOUT),
    ).toBe(undefined);
  });

  it("keeps an empty message as '' (never the text undefined)", () => {
    const record = parse(USER_SESSION_LAYOUT, "/qseow-proxy-session/;h;Stop session;D;U;O;C;");

    expect(record.message).toBe("");
  });

  it("cuts over-long fields to their maximum lengths", () => {
    const record = parse(
      USER_SESSION_LAYOUT,
      `/qseow-proxy-session/;${"h".repeat(150)};c;d;u;${"o".repeat(300)};${"c".repeat(600)};${"m".repeat(2000)}`,
    );

    expect([record.host.length, record.origin.length, record.context.length, record.message.length]).toEqual([
      100, 200, 500, 1000,
    ]);
  });
});

describe("the engine layout", () => {
  it("parses example 3, accepting its compact ts_iso and local ts_local", () => {
    const record = parse(ENGINE_LAYOUT, ENGINE);

    expect(record).toEqual({
      source: "qseow-engine",
      log_row: 1,
      ts_iso: "20211109T153726.028+0200",
      ts_local: "2021-11-09 15:37:26,028",
      level: "WARN",
      host: "host1",
      subsystem: "sub1",
      windows_user: "user1",
      message: "message1",
      proxy_session_id: UUID,
      user_directory: "dir1",
      user_id: "uid1",
      engine_ts: "ts1",
      process_id: UUID,
      engine_exe_version: "v1",
      server_started: "ts2",
      entry_type: "type1",
      session_id: UUID,
      app_id: UUID,
    });
  });

  it("stores upper-case UUIDs in lower case", () => {
    const record = parse(ENGINE_LAYOUT, ENGINE.replaceAll(UUID, "3B3B3B3B-3B3B-3B3B-3B3B-3B3B3B3B3B3B"));

    expect([record.proxy_session_id, record.process_id, record.session_id, record.app_id]).toEqual([
      UUID,
      UUID,
      UUID,
      UUID,
    ]);
  });

  it.each([
    ["too short", "3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3"],
    ["not hex", "3g3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b"],
    ["misplaced hyphens", "3b3b3b3b3-b3b-3b3b-3b3b-3b3b3b3b3b3b"],
    ["braces", "{3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b}"],
    ["non-ASCII", "3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3ß"],
  ])("turns a UUID field that is %s into ''", (_case, bad) => {
    const record = parse(ENGINE_LAYOUT, ENGINE.replace(`;${UUID};dir1`, `;${bad};dir1`));

    expect(record.proxy_session_id).toBe("");
    expect(record.process_id).toBe(UUID);
  });

  it("turns invalid timestamps into ''", () => {
    const record = parse(
      ENGINE_LAYOUT,
      ENGINE.replace("20211109T153726.028+0200", "yesterday").replace(
        "2021-11-09 15:37:26,028",
        "20211109T153726",
      ),
    );

    expect([record.ts_iso, record.ts_local]).toEqual(["", ""]);
  });

  it("accepts hyphenated ISO in both timestamp fields", () => {
    const iso = "2021-11-09T15:37:26.028+02:00";
    const record = parse(
      ENGINE_LAYOUT,
      ENGINE.replace("20211109T153726.028+0200", iso).replace("2021-11-09 15:37:26,028", iso),
    );

    expect([record.ts_iso, record.ts_local]).toEqual([iso, iso]);
  });

  it("re-joins surplus ; into the message field", () => {
    const record = parse(ENGINE_LAYOUT, ENGINE.replace(";message1;", ";part one; part two;part three;"));

    expect(record.message).toBe("part one; part two;part three");
    expect(record.proxy_session_id).toBe(UUID);
    expect(record.app_id).toBe(UUID);
  });

  it("rejects a datagram with 18 fields", () => {
    expect(splitFields(ENGINE.slice(0, ENGINE.lastIndexOf(";")), ENGINE_LAYOUT)).toBeUndefined();
  });

  it("strips control characters from every field, e.g. a trailing CR/LF", () => {
    const record = parse(ENGINE_LAYOUT, `${ENGINE.replace("host1", "ho\u0007st1")}\r\n`);

    expect(record.host).toBe("host1");
    expect(record.app_id).toBe(UUID);
  });

  it("gives log_row -1 when it is not a non-negative integer", () => {
    expect(parse(ENGINE_LAYOUT, ENGINE.replace("/;1;", "/;x1;")).log_row).toBe(-1);
    expect(parse(ENGINE_LAYOUT, ENGINE.replace("/;1;", "/;-5;")).log_row).toBe(-1);
    expect(parse(ENGINE_LAYOUT, ENGINE.replace("/;1;", "/;;")).log_row).toBe(-1);
  });
});

describe("the proxy and repository layout", () => {
  it("parses a proxy event", () => {
    const record = parse(PROXY_LAYOUT, PROXY);

    expect(record).toMatchObject({
      source: "qseow-proxy",
      log_row: 5,
      ts_iso: "2021-11-09T15:37:26.028+02:00",
      ts_local: "2021-11-09 15:37:26,028",
      message: "Session ended",
      exception_message: "Timeout",
      user_directory: "LAB",
      user_id: "goran",
      command: "Stop session",
      result_code: "201",
      origin: "AppAccess",
      context: "/hub",
    });
  });

  it("parses a repository event with ts_iso in UTC and empty user fields", () => {
    const record = parse(REPOSITORY_LAYOUT, REPOSITORY);

    expect(record).toMatchObject({
      source: "qseow-repository",
      ts_iso: "20211109T153726.028Z",
      user_directory: "",
      user_id: "",
      result_code: "500",
      context: "/qrs/sync",
    });
  });

  it("re-joins surplus ; into the message, not into the exception", () => {
    const record = parse(PROXY_LAYOUT, PROXY.replace(";Session ended;", ";Session;ended;"));

    expect(record.message).toBe("Session;ended");
    expect(record.exception_message).toBe("Timeout");
    expect(record.context).toBe("/hub");
  });
});

describe("the scheduler layout", () => {
  it("parses example 4", () => {
    const record = parse(SCHEDULER_LAYOUT, SCHEDULER);

    expect(record).toMatchObject({
      source: "qseow-scheduler",
      log_row: 14,
      ts_iso: "20211109T193744.331+0100",
      ts_local: "2021-11-09 19:37:44,331",
      level: "ERROR",
      subsystem: "System.Scheduler.Scheduler.Slave.Tasks.ReloadTask",
      exception_message: "",
      user_full: "LAB\\goran",
      task_name: "Manually triggered reload of Test failing reloads 2",
      app_name: "Test failing reloads 2",
      task_id: "dec2a02a-1680-44ef-8dc2-e2bfb180af87",
      app_id: "e7af59a0-c243-480d-9571-08727551a66f",
      execution_id: "4831c6a5-34f6-45bb-9d40-73a6e6992670",
    });
  });
});

describe("the engine API performance layout", () => {
  it("parses example 5 with its numbers", () => {
    const record = parse(QIX_PERF_LAYOUT, QIX_PERF);

    expect(record).toEqual({
      source: "qseow-qix-perf",
      log_row: 1523,
      ts_iso: "20250312T101512.123+0100",
      ts_local: "2025-03-12 10:15:12,123",
      level: "INFO",
      host: "qs-node1",
      subsystem: "QixPerformance.Engine.Engine",
      windows_user: "COMPANY\\qlikservice",
      proxy_session_id: "0",
      user_directory: "INTERNAL",
      user_id: "sa_scheduler",
      engine_ts: "2025-03-12T10:15:12.123+01:00",
      session_id: SESSION_ID,
      app_id: PERF_APP_ID,
      request_id: 42,
      method: "Doc::GetAppLayout",
      process_time: 12.5,
      work_time: 11.2,
      lock_time: 0.1,
      validate_time: 0.3,
      traverse_time: 0.9,
      handle: 1,
      object_id: "<Unknown>",
      net_ram: 123456,
      peak_ram: 234567,
      object_type: "<Unknown>",
    });
  });

  it("falls back to -99 for a bad request id or handle, and accepts handle -1", () => {
    expect(parse(QIX_PERF_LAYOUT, qixPerf({ 14: "-3", 21: "-1" }))).toMatchObject({
      request_id: -99,
      handle: -1,
    });
    expect(parse(QIX_PERF_LAYOUT, qixPerf({ 14: "4x", 21: "" }))).toMatchObject({
      request_id: -99,
      handle: -99,
    });
  });

  it("falls back to -1 for negative or non-numeric RAM figures", () => {
    expect(parse(QIX_PERF_LAYOUT, qixPerf({ 23: "-5", 24: "lots" }))).toMatchObject({
      net_ram: -1,
      peak_ram: -1,
    });
  });

  it("leaves times that are not finite numbers undefined, never NaN", () => {
    const record = parse(
      QIX_PERF_LAYOUT,
      qixPerf({ 16: "NaN", 17: "", 18: "1e999", 19: "Infinity", 20: "0x10" }),
    );

    expect([
      record.process_time,
      record.work_time,
      record.lock_time,
      record.validate_time,
      record.traverse_time,
    ]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it("treats surplus ; as malformed, having no free-text field to absorb them", () => {
    expect(splitFields(`${QIX_PERF};extra`, QIX_PERF_LAYOUT)).toBeUndefined();
  });
});

describe("number parsing", () => {
  it("reads integers strictly", () => {
    expect([parseInteger("42"), parseInteger(" 7 "), parseInteger("-3")]).toEqual([42, 7, -3]);
    expect([parseInteger("4.2"), parseInteger("1e3"), parseInteger(""), parseInteger("-")]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(parseInteger("99999999999999999")).toBeUndefined();
  });

  it("reads decimals strictly", () => {
    expect([parseDecimal("12.5"), parseDecimal(".5"), parseDecimal("-1e2"), parseDecimal("3.")]).toEqual([
      12.5, 0.5, -100, 3,
    ]);
    expect([parseDecimal("12.5ms"), parseDecimal("."), parseDecimal("1,5")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
