/**
 * The signals main.ts stops on: SIGTERM and SIGINT everywhere; on Windows also Ctrl+Break
 * (SIGBREAK) and the console window's closing (SIGHUP). The Ctrl+C path on Windows (the service
 * wrapper's stop) is run under Wine by the Windows smoke suite (test/integration/windows/); Wine
 * turns no Linux signal into Ctrl+Break or a closed console, so those two are checked here only.
 */
import { describe, expect, it } from "vitest";
import { stopSignals } from "../../../../local/cli/stop-signals.ts";

describe("stop signals", () => {
  it("are SIGTERM and SIGINT on Linux, where a closed terminal keeps SIGHUP's default", () => {
    expect(stopSignals("linux")).toEqual(["SIGTERM", "SIGINT"]);
  });

  it("add Ctrl+Break and the console's closing on Windows", () => {
    expect(stopSignals("win32")).toEqual(["SIGTERM", "SIGINT", "SIGBREAK", "SIGHUP"]);
  });
});
