/**
 * Loads a configuration file for a command of the CLI; when it is invalid, prints every problem
 * on standard error and returns undefined, so the command exits 1 without starting anything.
 * `check-config` also prints the file's warnings (a listener's certificate that expired or expires
 * within 30 days) as `warning: …` lines; `start` leaves them to the listener, which logs them when
 * it opens the certificate. Settings the operating system cannot serve (serviceMonitor off Windows)
 * are refused here too, as both commands must refuse them.
 */
import { resolve } from "node:path";
import { checkConfigFile } from "../../core/adapters/local/config-file.ts";
import { type Config, formatProblem, platformProblems } from "../../core/config/index.ts";
import { withCertificateCheck } from "./certificate-check.ts";

export interface ReportingIo {
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The operating system the settings are checked for; `process.platform` when left out. */
  platform?: NodeJS.Platform;
}

export interface ReportOptions {
  /** Print the file's warnings too. */
  warnings?: boolean;
}

export async function loadOrReport(
  file: string,
  io: ReportingIo,
  options: ReportOptions = {},
): Promise<Config | undefined> {
  const path = resolve(io.cwd, file);
  const checked = await checkConfigFile(path, io.env, io.cwd);
  const certified = await withCertificateCheck(checked, { fileName: path, env: io.env, cwd: io.cwd });
  const refused = certified.ok ? platformProblems(certified.config, io.platform ?? process.platform) : [];
  const result = refused.length > 0 ? { ...certified, ok: false as const, problems: refused } : certified;
  if (!result.ok) {
    io.stderr.write(`Configuration ${file} is invalid:\n`);
    for (const problem of result.problems) io.stderr.write(`${formatProblem(problem)}\n`);
  }
  if (options.warnings === true) {
    for (const warning of result.warnings) io.stderr.write(`warning: ${formatProblem(warning)}\n`);
  }
  return result.ok ? result.config : undefined;
}
