/** Small helpers shared by the config tests. */
import { expect } from "vitest";
import { type Config, type ConfigProblem, parseConfig } from "../../../../core/config/index.ts";

export const lines = (problems: readonly ConfigProblem[]) => problems.map((p) => `${p.path}: ${p.message}`);

/** Parses `{Service: service}` and returns the problem lines ([] when valid). */
export function problemsOf(service: unknown, env: Record<string, string | undefined> = {}): string[] {
  const result = parseConfig({ Service: service }, env);
  return result.ok ? [] : lines(result.problems);
}

/** Parses `{Service: service}`, failing the test with every problem when it is invalid. */
export function parseOk(service: unknown, env: Record<string, string | undefined> = {}): Config {
  const result = parseConfig({ Service: service }, env);
  if (!result.ok) expect.fail(lines(result.problems).join("\n"));
  return result.config;
}

/** `${NAME}` (built so that the linter does not mistake it for a template placeholder). */
export const envRef = (name: string) => ["$", "{", name, "}"].join("");
