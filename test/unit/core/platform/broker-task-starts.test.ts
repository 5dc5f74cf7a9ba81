import { describe, expect, it } from "vitest";
import { MAX_PAYLOAD_BYTES, readTaskId } from "../../../../core/platform/broker-task-starts.ts";

const TASK = "7552d9fc-d1bb-4975-9a38-18357de531ea";
const bytes = (text: string) => new TextEncoder().encode(text);

describe("readTaskId: what a message on the start topic names", () => {
  it("reads a task id given as text, as Butler took it", () => {
    expect(readTaskId(bytes(TASK))).toEqual({ ok: true, taskId: TASK });
  });

  it("ignores white space around the id (a line end from a file or mosquitto_pub -l) and reads upper case as lower", () => {
    expect(readTaskId(bytes(` ${TASK.toUpperCase()}\r\n`))).toEqual({ ok: true, taskId: TASK });
  });

  it("refuses text that is not a GUID, showing the start of it", () => {
    expect(readTaskId(bytes(`{"taskId":"${TASK}"}`))).toEqual({
      ok: false,
      reason: expect.stringMatching(/^not a task id/),
      preview: `{"taskId":"${TASK}"}`.slice(0, 64),
    });
    expect(readTaskId(bytes(`${TASK}x`))).toMatchObject({ ok: false });
    expect(readTaskId(bytes("   "))).toMatchObject({ ok: false, reason: "empty" });
  });

  it("refuses bytes that are not UTF-8 text without showing them", () => {
    expect(readTaskId(new Uint8Array([0xff, 0xfe, 0x00, 0x41]))).toEqual({
      ok: false,
      reason: "not UTF-8 text",
    });
  });

  it("refuses a message longer than a task id could be, before reading it", () => {
    const long = bytes(`${TASK}${" ".repeat(MAX_PAYLOAD_BYTES)}`);
    expect(readTaskId(long)).toEqual({
      ok: false,
      reason: `longer than ${MAX_PAYLOAD_BYTES} bytes (${long.byteLength})`,
    });
  });
});
