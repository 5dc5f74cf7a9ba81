/**
 * The kept script logs' directory as each platform reads it: relative to the working directory,
 * drive and UNC paths on Windows, UNC refused elsewhere, a name Windows refuses refused there, and
 * every refusal naming the setting.
 */
import { describe, expect, it } from "vitest";
import { scriptLogDirectory } from "../../../../local/agent/script-log-files.ts";

describe("the script logs' directory", () => {
  it("on Linux is taken relative to the working directory, with \\ read as a separator", () => {
    expect(scriptLogDirectory("./data/script-logs", "/opt/steward", "linux")).toBe(
      "/opt/steward/data/script-logs",
    );
    expect(scriptLogDirectory("logs\\failed", "/opt/steward", "linux")).toBe("/opt/steward/logs/failed");
    expect(() => scriptLogDirectory("//fileserver/qlik/logs", "/opt/steward", "linux")).toThrow(
      /taskEvents\.scriptLogFiles\.directory: UNC paths are not supported/,
    );
  });

  it("on Windows takes drive and UNC paths, and refuses a name Windows reads as a device", () => {
    expect(scriptLogDirectory("D:\\QlikLogs\\failed", "C:\\Steward", "win32")).toBe("D:\\QlikLogs\\failed");
    expect(scriptLogDirectory("\\\\fileserver\\qlik\\logs", "C:\\Steward", "win32")).toBe(
      "\\\\fileserver\\qlik\\logs",
    );
    expect(scriptLogDirectory(".\\data\\script-logs", "C:\\Steward", "win32")).toBe(
      "C:\\Steward\\data\\script-logs",
    );
    expect(() => scriptLogDirectory("D:\\logs\\CON", "C:\\Steward", "win32")).toThrow(
      /taskEvents\.scriptLogFiles\.directory: the name "CON"/,
    );
  });
});
