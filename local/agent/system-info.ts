/**
 * Host facts for the start-up line and the telemetry, from Node's `os` module and the runtime
 * only: no OS command is ever spawned (Butler SOS's `systeminformation` ran `chcp`, `netstat`…
 * on Windows, which security tools flag). Running in a container is told by `/.dockerenv`, as
 * Butler SOS does.
 */
import { existsSync } from "node:fs";
import { arch, cpus, hostname, platform, release, totalmem } from "node:os";
import type { AgentPart } from "./agent-part.ts";

export interface SystemInfo {
  readonly hostname: string;
  readonly platform: string;
  readonly arch: string;
  readonly release: string;
  readonly nodeVersion: string;
  readonly cpuCount: number;
  readonly totalMemoryBytes: number;
  readonly container: boolean;
}

export function readSystemInfo(): SystemInfo {
  return {
    hostname: hostname(),
    platform: platform(),
    arch: arch(),
    release: release(),
    nodeVersion: process.versions.node,
    cpuCount: cpus().length,
    totalMemoryBytes: totalmem(),
    container: existsSync("/.dockerenv"),
  };
}

/** The host facts in the log once, at start (`systemInfo.enable`). */
export const systemInfoPart: AgentPart = {
  name: "system-info",
  enabled: (config) => config.systemInfo.enable,
  async start({ logger }) {
    logger.info("host", { ...readSystemInfo() });
    return { stop: async () => undefined };
  },
};
