/**
 * The sc.exe adapter run as a child process on Linux, against a stand-in that replays
 * sc.exe outputs and exit codes (test/fixtures/sc-exe/replay-sc.mjs): a reading with the display
 * name and start type, each failure with its reason, a host and service name passed as whole
 * arguments (no shell), a run killed at its time limit, and a program that cannot be started.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createScServiceStateReader } from "../../../../../core/adapters/local/sc-service-state-reader.ts";

const REPLAY = join(import.meta.dirname, "../../../../fixtures/sc-exe/replay-sc.mjs");
const reader = createScServiceStateReader({ timeoutMs: 5000, command: REPLAY });

describe("the sc.exe service state reader", () => {
  it("reads a running service's state, display name and start type", async () => {
    await expect(reader.read("qs-node1", "QlikSenseServiceDispatcher")).resolves.toEqual({
      ok: true,
      state: "RUNNING",
      stateNum: 4,
      displayName: "Qlik Sense Service Dispatcher",
      startType: "Automatic",
      exePath: '"C:\\Program Files\\Qlik\\Sense\\ServiceDispatcher\\ServiceDispatcher.exe" -service',
      dependencies: [],
    });
    await expect(reader.read("qs-node1", "QlikSenseProxyService")).resolves.toMatchObject({
      ok: true,
      state: "STOPPED",
      stateNum: 1,
    });
  });

  it.each([
    ["NoSuchService", "missing", 1060],
    ["Denied", "denied", 5],
    ["Unreachable", "unreachable", 1722],
  ])("gives %s as a failed reading with its code, never a rejection", async (service, failure, code) => {
    const reading = await reader.read("qs-node2", service);
    expect(reading).toMatchObject({ ok: false, failure, code });
    expect(reading.ok ? "" : reading.reason).toMatch(new RegExp(`FAILED ${code}: \\w`));
  });

  it("passes the host and the service name as whole arguments, whatever they hold", async () => {
    const reading = await reader.read("qs node;1", "Echo args");
    expect(reading).toMatchObject({ ok: true, displayName: '["\\\\\\\\qs node;1","qc","Echo args"]' });
  });

  it("kills a run that does not answer within its time limit", async () => {
    const quick = createScServiceStateReader({ timeoutMs: 300, command: REPLAY });
    const started = Date.now();
    const reading = await quick.read("qs-node1", "Hang");
    expect(reading).toEqual({
      ok: false,
      failure: "timeout",
      code: undefined,
      reason: "no answer within 300 ms",
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("says so when the program cannot be started", async () => {
    const missing = createScServiceStateReader({ timeoutMs: 1000, command: "/nonexistent/sc.exe" });
    await expect(missing.read("qs-node1", "QlikSenseServiceDispatcher")).resolves.toEqual({
      ok: false,
      failure: "other",
      code: undefined,
      reason: "/nonexistent/sc.exe: ENOENT",
    });
  });
});
