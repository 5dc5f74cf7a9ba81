/**
 * Loads a configuration file for a command of the CLI; when it is invalid, prints every problem
 * on standard error and returns undefined, so the command exits 1 without starting anything.
 */
import { resolve } from "node:path";
import { loadConfigFile } from "../../core/adapters/local/config-file.ts";
import { type Config, ConfigError, formatProblem } from "../../core/config/index.ts";

export interface ReportingIo {
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

export async function loadOrReport(file: string, io: ReportingIo): Promise<Config | undefined> {
  try {
    return await loadConfigFile(resolve(io.cwd, file), io.env, io.cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`Configuration ${file} is invalid:\n`);
    for (const problem of error.problems) io.stderr.write(`${formatProblem(problem)}\n`);
    return undefined;
  }
}
