import { describe, expect, it } from "vitest";
import { parseTaskDatagram } from "../../../../core/task-events/task-datagram.ts";
import { markerOf } from "../../../../core/udp/datagram-text.ts";
import {
  ABORTED,
  ABORTED_LEGACY,
  DISTRIBUTE,
  DISTRIBUTE_NO_APP,
  ENGINE_RELOAD_FAILED_DATAGRAM,
  FAILED,
  FAILED_LEGACY,
  FAILED_NO_EXECUTOR,
  SUCCESS,
  SUCCESS_LEGACY,
  SUCCESS_TWO_SLASHES,
} from "./task-datagram-examples.ts";

const ORIGIN = { receivedAtMs: 1_750_000_000_000, sender: "10.0.0.5" };
const parse = (text: string) => parseTaskDatagram(text, markerOf(text), ORIGIN);

describe("parseTaskDatagram: every prefix an appender sends", () => {
  it.each([
    ["failed", FAILED, "failed"],
    ["failed, legacy prefix", FAILED_LEGACY, "failed"],
    ["failed, no executor", FAILED_NO_EXECUTOR, "failed"],
    ["aborted", ABORTED, "aborted"],
    ["aborted, legacy prefix", ABORTED_LEGACY, "aborted"],
    ["success with the two slashes that Butler's appender file sends", SUCCESS_TWO_SLASHES, "success"],
    ["success", SUCCESS, "success"],
    ["success, legacy prefix", SUCCESS_LEGACY, "success"],
    ["distribute", DISTRIBUTE, "distribute"],
    ["distribute without an app", DISTRIBUTE_NO_APP, "distribute"],
  ])("%s", (_name, text, kind) => {
    const result = parse(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.event.kind).toBe(kind);
  });

  it("reads the eleven fields by name, with the receive time and sender", () => {
    const result = parse(FAILED);
    expect(result).toEqual({
      ok: true,
      event: {
        kind: "failed",
        prefix: "/scheduler-task-failed/",
        hostName: "qs-node1",
        taskName: "Reload Sales",
        appName: "Sales dashboard",
        user: "INTERNAL\\sa_scheduler",
        taskId: "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
        appId: "a9e84152-206c-4b0e-a459-e5c2021f8316",
        logTimeStamp: "2026-06-20 14:03:12,345",
        logLevel: "ERROR",
        executionId: "32342464-c525-45c4-b755-1a2b55d4e7f1",
        logMessage: "Task finished with state FinishedFail. Max retries reached",
        ...ORIGIN,
      },
    });
  });

  it("compares the prefix case-insensitively and lower-cases GUIDs", () => {
    const text = FAILED.replace("/scheduler-task-failed/", "/SCHEDULER-TASK-FAILED/").replace(
      "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
      "54767E54-AF40-4DA3-8C3A-A9EAD04C7EE9",
    );
    const result = parse(text);
    expect(result.ok && result.event.taskId).toBe("54767e54-af40-4da3-8c3a-a9ead04c7ee9");
  });
});

describe("parseTaskDatagram: edge cases", () => {
  it("keeps a ';' inside the message in the message instead of shifting the fields", () => {
    const result = parse(`${FAILED}; then; more`);
    expect(result.ok && result.event.logMessage).toBe(
      "Task finished with state FinishedFail. Max retries reached; then; more",
    );
    expect(result.ok && result.event.executionId).toBe("32342464-c525-45c4-b755-1a2b55d4e7f1");
  });

  it("removes control characters from fields", () => {
    const result = parse(FAILED.replace("Reload Sales", "Reload\u0007 Sales\u001b"));
    expect(result.ok && result.event.taskName).toBe("Reload Sales");
  });

  it("calls a datagram with fewer than eleven fields malformed, with its kind", () => {
    const short = FAILED.split(";").slice(0, 10).join(";");
    expect(parse(short)).toMatchObject({ ok: false, outcome: "malformed", kind: "failed" });
  });

  it.each([
    ["task id not a GUID", FAILED.replace("54767e54-af40-4da3-8c3a-a9ead04c7ee9", "not-a-guid")],
    ["task id empty", FAILED.replace("54767e54-af40-4da3-8c3a-a9ead04c7ee9", "")],
    ["app id not a GUID", FAILED.replace("a9e84152-206c-4b0e-a459-e5c2021f8316", "12345")],
    ["execution id not a GUID", FAILED.replace("32342464-c525-45c4-b755-1a2b55d4e7f1", "exec")],
  ])("calls a datagram with its %s malformed, saying why", (_name, text) => {
    const result = parse(text);
    expect(result).toMatchObject({ ok: false, outcome: "malformed" });
    expect(!result.ok && result.reason).toMatch(/GUID|empty/);
  });

  it("ignores the engine's reload-failed datagram: it names no task", () => {
    expect(parse(ENGINE_RELOAD_FAILED_DATAGRAM)).toMatchObject({ ok: false, outcome: "ignored" });
  });

  it.each([["/qseow-engine/;a;b"], [""], ["garbage without separators"], ["/scheduler-task/;x"]])(
    "calls %j an unknown prefix",
    (text) => {
      expect(parse(text)).toMatchObject({ ok: false, outcome: "unknown_marker" });
    },
  );
});
