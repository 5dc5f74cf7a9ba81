/**
 * The repository's TypeScript sources and what each imports, for the architecture tests: the
 * import specifiers of a source in every form the code uses (import, export from, dynamic
 * import, bare import), and every `.ts` file under a folder.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The repository's root. */
export const ROOT = join(import.meta.dirname, "..", "..");

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

export function importsOf(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
}

export function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}
