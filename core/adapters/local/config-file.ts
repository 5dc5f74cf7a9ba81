/**
 * Reading the configuration file from disk: the file system half of the configuration (the
 * rules are in core/config/). After the pure checks, the certificate files are checked when a
 * feature needs them: the platform's `cert.*`, the broker's `mqttConfig.tls.*` and the
 * time-series database's `timeseriesdbConfig.tls.caFile`.
 *
 * - checkConfigFile(path, env?)  reads the file; also checks certificate files when needed
 * - loadConfigFile(path, env?)   like checkConfigFile, but returns Config or throws ConfigError
 */
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  CERT_FILE_KEYS,
  mqttTlsFiles,
  needsCertificates,
  timeseriesdbTlsFiles,
} from "../../config/certificates.ts";
import type { Env } from "../../config/env.ts";
import { checkConfigText, checkExtension, type ParseResult } from "../../config/parse.ts";
import { ConfigError, type ConfigProblem, sortProblems } from "../../config/problems.ts";
import type { Config } from "../../config/schema/config.ts";

/** A problem when the file cannot be read, else undefined. */
async function unreadable(path: string, file: string, cwd: string): Promise<ConfigProblem | undefined> {
  const absolute = resolve(cwd, file);
  try {
    await access(absolute, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return { path, message: `cannot read file ${absolute} (${code})` };
  }
}

/** One problem per certificate file that is unset or unreadable (paths relative to `cwd`). */
export async function checkCertificateFiles(
  config: Config,
  cwd: string = process.cwd(),
): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  if (needsCertificates(config)) {
    for (const key of CERT_FILE_KEYS) {
      const path = `Service.cert.${key}`;
      const file = config.cert[key];
      if (file === "") {
        problems.push({
          path,
          message: "required (a certificate file) by the features that reach the platform",
        });
        continue;
      }
      const found = await unreadable(path, file, cwd);
      if (found !== undefined) problems.push(found);
    }
  }
  const brokerFiles = config.mqttConfig.enable ? mqttTlsFiles(config.mqttConfig) : [];
  for (const { key, file } of brokerFiles) {
    const found = await unreadable(`Service.mqttConfig.tls.${key}`, file, cwd);
    if (found !== undefined) problems.push(found);
  }
  for (const { key, file } of timeseriesdbTlsFiles(config)) {
    const found = await unreadable(`Service.timeseriesdbConfig.tls.${key}`, file, cwd);
    if (found !== undefined) problems.push(found);
  }
  return problems;
}

/** Full check of a file: read, YAML, schema, cross-field rules and certificate files. */
export async function checkConfigFile(path: string, env: Env = process.env): Promise<ParseResult> {
  const extension = checkExtension(path);
  if (extension !== undefined) return { ok: false, problems: [extension] };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a directory"
          : `cannot read file (${code ?? "error"})`;
    return { ok: false, problems: [{ path, message: reason }] };
  }
  const result = checkConfigText(text, path, env);
  if (!result.ok) return result;
  const certProblems = await checkCertificateFiles(result.config);
  return certProblems.length > 0 ? { ok: false, problems: sortProblems(certProblems) } : result;
}

/** Loads and validates a configuration file; throws ConfigError listing every problem. */
export async function loadConfigFile(path: string, env: Env = process.env): Promise<Config> {
  const result = await checkConfigFile(path, env);
  if (!result.ok) throw new ConfigError(result.problems);
  return result.config;
}
