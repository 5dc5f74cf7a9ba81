/**
 * The listeners' certificates in the configuration check: after the schema, the cross-field rules
 * and the readability of the files the configuration names (core/adapters/local/config-file.ts),
 * every enabled `<section>.tls` block is opened as its listener would open it
 * (local/http/server-certificate.ts), so that a key that is not the certificate's, a wrong
 * passphrase or a file that holds no certificate is reported with every other problem, naming the
 * setting and the file, by `check-config`, `migrate-config` and at start. A certificate that
 * expired, is not valid yet or expires within 30 days is a warning, not a problem.
 */
import { readFile } from "node:fs/promises";
import {
  type ConfigProblem,
  checkConfigText,
  type Env,
  type NamedListenerTls,
  type ParseResult,
  sortProblems,
} from "../../core/config/index.ts";
import { checkListenerCertificates } from "../http/server-certificate.ts";

export type CheckedConfig = ParseResult & {
  /** What is worth saying but not refusing (a certificate near or past its end). */
  readonly warnings: readonly ConfigProblem[];
};

export interface CertificateCheckOptions {
  /** The configuration's text, when the caller read it; else read again from `fileName` if needed. */
  readonly text?: string | undefined;
  readonly fileName: string;
  readonly env: Env;
  /** Where relative paths start. */
  readonly cwd: string;
  /** The dates of the certificates are judged at this time (now unless given). */
  readonly nowMs?: number;
}

/** The blocks to open: the file check leaves them out of a result it refused, the text gives them again. */
async function blocksOf(
  result: ParseResult,
  options: CertificateCheckOptions,
): Promise<readonly NamedListenerTls[]> {
  if (result.listenerTls !== undefined) return result.listenerTls;
  const text = options.text ?? (await readFile(options.fileName, "utf8").catch(() => undefined));
  if (text === undefined) return [];
  return checkConfigText(text, options.fileName, options.env).listenerTls ?? [];
}

/** `result` with the problems and warnings of the listeners' certificates added. */
export async function withCertificateCheck(
  result: ParseResult,
  options: CertificateCheckOptions,
): Promise<CheckedConfig> {
  const blocks = await blocksOf(result, options);
  const check = await checkListenerCertificates(blocks, options.cwd, options.nowMs ?? Date.now());
  const warnings = sortProblems(check.warnings);
  if (check.problems.length === 0) return { ...result, warnings };
  const problems = result.ok ? check.problems : [...result.problems, ...check.problems];
  return { ok: false, problems: sortProblems(problems), files: result.files, warnings };
}
