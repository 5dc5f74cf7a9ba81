/**
 * Settings that only one operating system can serve, refused elsewhere by the local process's
 * `check-config` and `start` (local/cli/load-or-report.ts) with the reason, so that a section
 * switched on is never silently idle. Kept out of parseConfig: the same file parses in the cloud,
 * where these sections are not read. The platform is a parameter (`process.platform` in the
 * process), so that tests on Linux can ask for Windows.
 */
import { type ConfigProblem, problem } from "./problems.ts";
import type { Config } from "./schema/config.ts";

/** The refusal of `serviceMonitor.enable: true` off Windows, in the words of its one line. */
export const SERVICE_MONITOR_WINDOWS_ONLY =
  "serviceMonitor runs only on Windows: it queries services with sc.exe";

/** One problem per setting that `platform` cannot serve; none on the platform it needs. */
export function platformProblems(config: Pick<Config, "serviceMonitor">, platform: string): ConfigProblem[] {
  if (config.serviceMonitor.enable && platform !== "win32")
    return [
      problem(
        ["Service", "serviceMonitor", "enable"],
        `${SERVICE_MONITOR_WINDOWS_ONLY} (this is ${platform})`,
      ),
    ];
  return [];
}
