/**
 * A stand-in for Windows' sc.exe whose answers a test changes between polls: an executable script
 * in a scratch directory that answers `\\HOST query|qc NAME` with the recorded sc.exe output the
 * test last named for that verb and service (test/fixtures/sc-exe/) and its exit code, read from
 * a JSON file beside it at every run. The sc.exe adapter runs it as it runs sc.exe (execFile).
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDirectory } from "./per-test-environment.ts";

export const SC_FIXTURES = join(import.meta.dirname, "..", "fixtures", "sc-exe");

const SCRIPT = `#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
const [, verb, service] = process.argv.slice(2);
const answers = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "answers.json"), "utf8"));
const [file, code] = answers[verb]?.[service] ?? answers[verb]?.["*"] ?? [null, 1060];
if (file !== null) process.stdout.write(readFileSync(file, "latin1"));
process.exitCode = code;
`;

export interface ScStandIn {
  /** The program to give the adapter as `command`. */
  readonly command: string;
  /** From now on, `verb` of `service` ("*" for any) answers the fixture `file` with exit code `code`. */
  answer(verb: "query" | "qc", service: string, file: string, code?: number): void;
}

export function scStandIn(): ScStandIn {
  const directory = scratchDirectory("steward-sc-");
  const command = join(directory, "sc.mjs");
  writeFileSync(command, SCRIPT);
  chmodSync(command, 0o755);
  const answers: Record<string, Record<string, [string, number]>> = { query: {}, qc: {} };
  const save = () => writeFileSync(join(directory, "answers.json"), JSON.stringify(answers));
  save();
  return {
    command,
    answer(verb, service, file, code = 0) {
      (answers[verb] as Record<string, [string, number]>)[service] = [join(SC_FIXTURES, file), code];
      save();
    },
  };
}
