/**
 * `steward migrate-config FILE`: reads a Butler SOS or Butler configuration (told apart by the
 * top-level key) and prints the equivalent
 * Steward configuration on standard output (the rules are in core/config/migrate/). Standard
 * error lists every key left out and every value changed, with the reason, then checks the
 * result as `check-config` would (schema, cross-field rules, the files it names and the listeners'
 * certificates, relative to the working directory, in one pass) and lists everything a person still has to fix.
 *
 * Exit status: 0 converted and accepted; 2 converted, but the listed problems need fixing before
 * Steward starts with it; 1 nothing converted (unreadable file, YAML error, not a Butler SOS or Butler file).
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { checkConfigTextAndFiles } from "../../core/adapters/local/config-file.ts";
import { formatProblem, migrateConfigText } from "../../core/config/index.ts";
import { SERVICE_NAME, SERVICE_VERSION } from "../../core/version.ts";
import { withCertificateCheck } from "./certificate-check.ts";
import type { CliIo } from "./cli.ts";

const PREFIX = "migrate-config:";

/** Converts `file` (relative to `io.cwd`); returns the exit status. */
export async function migrateConfig(file: string, io: CliIo): Promise<number> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "file not found" : `cannot read file (${code ?? String(error)})`;
    io.stderr.write(`${PREFIX} ${file}: ${reason}\n`);
    return 1;
  }
  const result = migrateConfigText(text, {
    sourceName: file,
    convertedBy: `${SERVICE_NAME} ${SERVICE_VERSION}`,
  });
  if (!result.ok) {
    io.stderr.write(`${PREFIX} ${file}: ${result.message}\n`);
    return 1;
  }
  io.stdout.write(result.text);

  const lines = [
    `${PREFIX} converted ${file} from ${result.product}: ${result.renamed} keys renamed, ${result.dropped.length} left out`,
  ];
  for (const key of result.dropped) lines.push(`  left out ${key.path}: ${key.reason}`);
  for (const note of result.notes) lines.push(`  note ${note.path}: ${note.message}`);
  const problems = await checkResult(result.text, io);
  if (problems.length === 0) {
    lines.push(`${PREFIX} check-config accepts the result`);
  } else {
    lines.push(`${PREFIX} fix these before Steward starts with the result (check-config would say):`);
    for (const problem of problems) lines.push(`  ${problem}`);
  }
  io.stderr.write(`${lines.join("\n")}\n`);
  return problems.length === 0 ? 0 : 2;
}

/** What `check-config` would print for the converted text (files relative to the working directory), all at once. */
async function checkResult(text: string, io: CliIo): Promise<string[]> {
  const fileName = "converted.yaml";
  const files = await checkConfigTextAndFiles(text, fileName, io.env, io.cwd);
  const checked = await withCertificateCheck(files, { text, fileName, env: io.env, cwd: io.cwd });
  return checked.ok ? [] : checked.problems.map(formatProblem);
}
