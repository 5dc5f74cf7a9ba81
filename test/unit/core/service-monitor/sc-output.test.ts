/**
 * Reading sc.exe's English outputs, written in the format Windows' sc.exe prints (CRLF line ends):
 * a query of a running, a stopped and a starting service; the failures of a service that does not
 * exist (1060), of access denied (5) and of an unreachable host (1722); and the display name and
 * start type of a config query.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScConfig, parseScFailure, parseScQuery } from "../../../../core/service-monitor/sc-output.ts";

const recorded = (name: string) =>
  readFileSync(join(import.meta.dirname, "../../../fixtures/sc-exe", name), "latin1");

describe("sc.exe query", () => {
  it.each([
    ["query-running.txt", "RUNNING", 4],
    ["query-stopped.txt", "STOPPED", 1],
    ["query-start-pending.txt", "START_PENDING", 2],
  ])("reads the state of %s", (file, state, stateNum) => {
    expect(parseScQuery(recorded(file))).toEqual({ state, stateNum });
    expect(parseScFailure(recorded(file))).toBeUndefined();
  });

  it("reads the same output with LF line ends", () => {
    expect(parseScQuery(recorded("query-running.txt").replaceAll("\r\n", "\n"))).toEqual({
      state: "RUNNING",
      stateNum: 4,
    });
  });

  it.each([
    [
      "query-missing-1060.txt",
      "missing",
      1060,
      "EnumQueryServicesStatus:OpenService FAILED 1060: The specified service does not exist as an installed service.",
    ],
    ["query-access-denied-5.txt", "denied", 5, "OpenSCManager FAILED 5: Access is denied."],
    [
      "query-unreachable-1722.txt",
      "unreachable",
      1722,
      "OpenSCManager FAILED 1722: The RPC server is unavailable.",
    ],
  ])("reads the failure of %s with its code and Windows' words", (file, failure, code, reason) => {
    expect(parseScQuery(recorded(file))).toBeUndefined();
    expect(parseScFailure(recorded(file))).toEqual({ failure, code, reason });
  });

  it("finds no state and no failure in an output that is neither", () => {
    expect(parseScQuery("something else\r\nSTATE : 9  SLEEPING\r\n")).toBeUndefined();
    expect(parseScFailure("")).toBeUndefined();
  });
});

describe("sc.exe qc", () => {
  it("reads the display name, the start type in Butler's words, the program and the dependencies", () => {
    expect(parseScConfig(recorded("qc-auto-start.txt"))).toEqual({
      displayName: "Qlik Sense Service Dispatcher",
      startType: "Automatic",
      exePath: '"C:\\Program Files\\Qlik\\Sense\\ServiceDispatcher\\ServiceDispatcher.exe" -service',
      dependencies: [],
    });
    expect(parseScConfig(recorded("qc-delayed-start.txt"))).toEqual({
      displayName: "Qlik Sense Repository Service",
      startType: "Automatic (delayed start)",
      exePath: '"C:\\Program Files\\Qlik\\Sense\\Repository\\Repository.exe" -iscentralnode',
      dependencies: ["QlikSenseRepositoryDatabase", "QlikSenseServiceDispatcher"],
    });
  });

  it.each([
    ["3   DEMAND_START", "Manual"],
    ["4   DISABLED", "Disabled"],
    ["9   SOMETHING_NEW", "SOMETHING_NEW"],
  ])("names START_TYPE %s as %s", (value, startType) => {
    const text = `START_TYPE         : ${value}\r\nDISPLAY_NAME       : X\r\n`;
    expect(parseScConfig(text)?.startType).toBe(startType);
  });

  it("reads nothing from a failed config query", () => {
    expect(parseScConfig(recorded("query-missing-1060.txt"))).toBeUndefined();
  });
});
