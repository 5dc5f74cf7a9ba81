/**
 * Reading the configuration file from disk: the file system half of the configuration (the
 * rules are in core/config/). The files that the validated sections name (the platform's
 * `cert.*`, the broker's `mqttConfig.tls.*`, a webhook's `cert.certCA`, ...) are checked for
 * readability in the same pass as the schema, so that every problem is reported at once: an
 * operator fixing a file (or planning a migration from migrate-config's list) sees them all.
 *
 * - checkConfigFile(path, env?, cwd?)        reads the file; checks it and the files it names
 * - checkConfigTextAndFiles(text, name, ...)  the same for text already read (migrate-config)
 * - loadConfigFile(path, env?, cwd?)         like checkConfigFile, but returns Config or throws ConfigError
 */
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type Config,
  ConfigError,
  type ConfigProblem,
  checkConfigText,
  checkExtension,
  type Env,
  type NamedFile,
  type ParseResult,
  sortProblems,
} from "../../config/index.ts";

/** A problem when the file is needed but not named, or cannot be read; else undefined. */
async function unreadable(
  { path, file, whenEmpty }: NamedFile,
  cwd: string,
): Promise<ConfigProblem | undefined> {
  if (file === "") return whenEmpty === undefined ? undefined : { path, message: whenEmpty };
  const absolute = resolve(cwd, file);
  try {
    await access(absolute, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return { path, message: `cannot read file ${absolute} (${code})` };
  }
}

/** One problem per file that is needed but not named, or cannot be read (paths relative to `cwd`). */
export async function checkNamedFiles(
  files: readonly NamedFile[],
  cwd: string = process.cwd(),
): Promise<ConfigProblem[]> {
  const found = await Promise.all(files.map((named) => unreadable(named, cwd)));
  return found.filter((problem): problem is ConfigProblem => problem !== undefined);
}

/** Text read from `fileName`: extension, YAML, schema, cross-field rules and the files it names. */
export async function checkConfigTextAndFiles(
  text: string,
  fileName: string,
  env: Env = process.env,
  cwd: string = process.cwd(),
): Promise<ParseResult> {
  const result = checkConfigText(text, fileName, env);
  const fileProblems = await checkNamedFiles(result.files, cwd);
  if (fileProblems.length === 0) return result;
  const problems = result.ok ? fileProblems : [...result.problems, ...fileProblems];
  return { ok: false, problems: sortProblems(problems), files: result.files };
}

/** Full check of a file: read, YAML, schema, cross-field rules and the files it names. */
export async function checkConfigFile(
  path: string,
  env: Env = process.env,
  cwd: string = process.cwd(),
): Promise<ParseResult> {
  const extension = checkExtension(path);
  if (extension !== undefined) return { ok: false, problems: [extension], files: [] };
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
    return { ok: false, problems: [{ path, message: reason }], files: [] };
  }
  return checkConfigTextAndFiles(text, path, env, cwd);
}

/** Loads and validates a configuration file; throws ConfigError listing every problem. */
export async function loadConfigFile(
  path: string,
  env: Env = process.env,
  cwd: string = process.cwd(),
): Promise<Config> {
  const result = await checkConfigFile(path, env, cwd);
  if (!result.ok) throw new ConfigError(result.problems);
  return result.config;
}
