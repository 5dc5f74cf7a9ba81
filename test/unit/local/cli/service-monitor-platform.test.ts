/**
 * Windows service monitoring reads services with sc.exe, which only Windows has: check-config and
 * start refuse `serviceMonitor.enable: true` on any other operating system with that reason, and
 * accept the same file on Windows (the platform is injected, so both are shown on Linux).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../local/cli/cli.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

const REFUSAL =
  "Service.serviceMonitor.enable: serviceMonitor runs only on Windows: it queries services with sc.exe";

function configDirectory(enable: boolean): string {
  const dir = scratchDirectory("steward-service-monitor-");
  writeFileSync(
    join(dir, "steward.yaml"),
    [
      "Service:",
      "  serviceMonitor:",
      `    enable: ${enable}`,
      "    frequency: every 30 seconds",
      "    monitor:",
      "      - host: sense1.example.com",
      "        services:",
      "          - name: QlikSenseRepositoryService",
      "            friendlyName: Repository",
      "",
    ].join("\n"),
  );
  return dir;
}

describe("serviceMonitor off Windows", () => {
  it.each(["linux", "darwin"] as const)(
    "is refused by check-config on %s with the reason",
    async (platform) => {
      const io = { ...recordingCliIo(configDirectory(true)), platform };

      const code = exitCode(await runCli(["check-config", "steward.yaml"], io));

      expect(code).toBe(1);
      expect(io.err()).toContain("Configuration steward.yaml is invalid:\n");
      expect(io.err()).toContain(`${REFUSAL} (this is ${platform})\n`);
      expect(io.out()).toBe("");
    },
  );

  it("is refused by start on Linux before anything starts", async () => {
    const io = { ...recordingCliIo(configDirectory(true)), platform: "linux" as const };

    const code = exitCode(await runCli(["start", "--config", "steward.yaml"], io));

    expect(code).toBe(1);
    expect(io.err()).toContain(`${REFUSAL} (this is linux)\n`);
  });

  it("is accepted on Windows, and switched off it is accepted anywhere", async () => {
    const onWindows = { ...recordingCliIo(configDirectory(true)), platform: "win32" as const };
    const offOnLinux = { ...recordingCliIo(configDirectory(false)), platform: "linux" as const };

    expect(exitCode(await runCli(["check-config", "steward.yaml"], onWindows))).toBe(0);
    expect(onWindows.out()).toBe("ok\n");
    expect(exitCode(await runCli(["check-config", "steward.yaml"], offOnLinux))).toBe(0);
    expect(offOnLinux.err()).not.toContain("serviceMonitor");
  });
});
