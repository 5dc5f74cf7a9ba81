/**
 * Reading the configuration file from disk (the only module here that touches node:fs). After
 * the pure checks of parse.ts, the certificate files are checked when a feature needs them.
 */
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Env } from "./env.ts";
import { checkConfigText, checkExtension, type ParseResult } from "./parse.ts";
import { ConfigError, type ConfigProblem, sortProblems } from "./problems.ts";
import type { Config } from "./schema/config.ts";
import { PLATFORM_ENDPOINT_KEYS } from "./schema/rest-server.ts";

/** True when a feature that talks to the platform with client certificates is active. */
export function needsCertificates(config: Config): boolean {
  const rest = config.restServer;
  return (
    (rest.enable && PLATFORM_ENDPOINT_KEYS.some((k) => rest.endpointsEnable[k])) ||
    config.serversToMonitor.servers.length > 0 ||
    config.appNames.enableAppNameExtract ||
    config.userSessions.enableSessionExtract
  );
}

const CERT_KEYS = ["clientCert", "clientCertKey", "clientCertCA"] as const;

/** One problem per certificate file that is unset or unreadable (paths relative to `cwd`). */
export async function checkCertificateFiles(
  config: Config,
  cwd: string = process.cwd(),
): Promise<ConfigProblem[]> {
  if (!needsCertificates(config)) return [];
  const problems: ConfigProblem[] = [];
  for (const key of CERT_KEYS) {
    const path = `Service.cert.${key}`;
    const file = config.cert[key];
    if (file === "") {
      problems.push({
        path,
        message: "required (a certificate file) by the features that reach the platform",
      });
      continue;
    }
    const absolute = resolve(cwd, file);
    try {
      await access(absolute, constants.R_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      problems.push({ path, message: `cannot read file ${absolute} (${code})` });
    }
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
