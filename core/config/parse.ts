/**
 * Pure parsing of a configuration tree or YAML text into the typed `Config` (no node: imports, so
 * Lambda handlers can use it). Every problem is collected and reported at once, sorted by path.
 */
import * as v from "valibot";
import { parseDocument } from "yaml";
import { crossCheckAroundIssues } from "./cross-check-around-issues.ts";
import { crossCheck } from "./cross-checks.ts";
import { describeValue } from "./describe-value.ts";
import { type Env, processEnv } from "./env.ts";
import { computeActivity, isPlainObject } from "./gates.ts";
import type { NamedListenerTls } from "./listener-tls.ts";
import type { NamedFile } from "./named-file.ts";
import { isSecretKey } from "./obfuscate.ts";
import { preprocessService } from "./preprocess.ts";
import { type ConfigProblem, type PathSegment, problem, sortProblems } from "./problems.ts";
import { type Config, serviceSchema } from "./schema/config.ts";
import { suggestKey } from "./suggest.ts";
import { describeYamlErrors } from "./yaml-syntax-errors.ts";

/**
 * The typed config, or every problem found. Either way `files` lists the files the validated
 * sections name, and `listenerTls` the listeners' enabled `tls` blocks, so that the caller that
 * can read files checks them in the same pass.
 */
export type ParseResult = ({ ok: true; config: Config } | { ok: false; problems: ConfigProblem[] }) & {
  readonly files: readonly NamedFile[];
  readonly listenerTls?: readonly NamedListenerTls[];
};

const EXPECTED_NAMES: Readonly<Record<string, string>> = { Object: "a mapping", Array: "a list" };

function issueMessage(issue: v.BaseIssue<unknown>, path: readonly PathSegment[]): string {
  // Type errors get our wording; every other issue carries the message its schema defined.
  if (issue.kind !== "schema" || !issue.message.startsWith("Invalid ")) return issue.message;
  if (issue.input === undefined) return "required";
  const expected =
    issue.expected === null ? "another type" : (EXPECTED_NAMES[issue.expected] ?? issue.expected);
  const last = path[path.length - 1];
  const secret = typeof last === "string" && isSecretKey(last);
  return secret ? `expected ${expected}` : `expected ${expected}, received ${describeValue(issue.input)}`;
}

/** Where an issue is, from under `Service`. */
function issuePath(issue: v.BaseIssue<unknown>): PathSegment[] {
  const path: PathSegment[] = [];
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "string" || typeof key === "number") path.push(key);
  }
  return path;
}

function issueToProblem(issue: v.BaseIssue<unknown>): ConfigProblem {
  const path: PathSegment[] = ["Service", ...issuePath(issue)];
  return problem(path, issueMessage(issue, path));
}

/**
 * Validates a raw tree (the whole file: `{ Service: {...} }`) and returns the typed config with
 * every default applied, or every problem found.
 */
export function parseConfig(raw: unknown, env: Env = processEnv()): ParseResult {
  const problems: ConfigProblem[] = [];
  const root = raw ?? {};
  if (!isPlainObject(root)) {
    return {
      ok: false,
      problems: [problem(["Service"], "the file must be a mapping with the top-level key Service")],
      files: [],
    };
  }
  for (const key of Object.keys(root)) {
    if (key === "Service") continue;
    const hint = suggestKey(key, ["Service"]);
    problems.push(
      problem(
        [key],
        hint === undefined
          ? 'unknown top-level key (only "Service" is allowed)'
          : 'unknown top-level key (did you mean "Service"?)',
      ),
    );
  }
  const service = root.Service ?? {};
  if (!isPlainObject(service)) {
    problems.push(problem(["Service"], `expected a mapping, received ${describeValue(service)}`));
    return { ok: false, problems: sortProblems(problems), files: [] };
  }
  const activity = computeActivity(service);
  const { tree, files, listenerTls } = preprocessService(service, serviceSchema, env, activity, problems);
  const result = v.safeParse(serviceSchema, tree, { abortEarly: false });
  if (!result.success) {
    problems.push(...result.issues.map(issueToProblem));
    problems.push(...crossCheckAroundIssues(tree, result.issues.map(issuePath)));
    return { ok: false, problems: sortProblems(problems), files, listenerTls };
  }
  problems.push(...crossCheck(result.output));
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems), files, listenerTls };
  return { ok: true, config: result.output, files, listenerTls };
}

const ALLOWED_EXTENSIONS = [".yaml", ".yml"];

/** A problem when the file name does not end in .yaml or .yml (case-insensitive). */
export function checkExtension(fileName: string): ConfigProblem | undefined {
  const lower = fileName.toLowerCase();
  if (ALLOWED_EXTENSIONS.some((ext) => lower.endsWith(ext))) return undefined;
  return { path: fileName, message: "the file extension must be .yaml or .yml" };
}

/**
 * Checks YAML text as read from `fileName`: extension, YAML syntax (with line and column), the
 * `Service` top key and the whole schema. File-level problems carry the file name as their path.
 */
export function checkConfigText(text: string, fileName: string, env: Env = processEnv()): ParseResult {
  const extension = checkExtension(fileName);
  if (extension !== undefined) return { ok: false, problems: [extension], files: [] };
  // Merge keys (`<<: *anchor`) are YAML 1.1, but configs written for Butler SOS use them.
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, merge: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: describeYamlErrors(doc.errors).map((message) => ({ path: fileName, message })),
      files: [],
    };
  }
  let tree: unknown;
  try {
    tree = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // e.g. an alias expanding beyond maxAliasCount (a "billion laughs" document).
    return {
      ok: false,
      problems: [{ path: fileName, message: `YAML error: ${(error as Error).message}` }],
      files: [],
    };
  }
  return parseConfig(tree, env);
}
