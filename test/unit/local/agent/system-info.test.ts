/**
 * systemInfo comes from Node's os module only: no OS command is spawned (on Windows, the commands
 * Butler SOS spawned trip enterprise security tools).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSystemInfo } from "../../../../local/agent/system-info.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..", "..");
const SELF_MONITORING_FILES = [
  "local/agent/system-info.ts",
  "local/agent/telemetry.ts",
  "core/monitoring/telemetry-payload.ts",
  "core/adapters/local/instance-id-file.ts",
];

describe("system info", () => {
  it("reads the host facts from the runtime", () => {
    const info = readSystemInfo();
    expect(info.platform).toBe(process.platform);
    expect(info.arch).toBe(process.arch);
    expect(info.nodeVersion).toBe(process.versions.node);
    expect(info.cpuCount).toBeGreaterThan(0);
    expect(info.totalMemoryBytes).toBeGreaterThan(0);
  });

  it.each(SELF_MONITORING_FILES)("%s never imports child_process or a system-information package", (file) => {
    const source = readFileSync(join(ROOT, file), "utf8");
    expect(source).not.toMatch(/from\s+["'](node:)?child_process["']/);
    expect(source).not.toMatch(/from\s+["']systeminformation["']/);
  });
});
