/**
 * The Node.js lines Steward supports, read from package.json's `engines.node`: that range is the
 * one place they are declared, so npm's EBADENGINE warning, the WARN `steward start` logs on any
 * other Node and the handbook's pages (test/unit/docs/node-lines.test.ts) cannot name different
 * lines. The supported lines are the LTS lines Node.js still maintains; the newest of them is the
 * primary line: the Lambda functions run on it, CI runs the whole suite on it (the Node binary
 * pinned in bin/package/pinned-packages.ts) and the Linux executable embeds it. Node 20 reached
 * its end of life in April 2026.
 *
 * Steward still starts on another Node (it is not refused: an operator can upgrade when it suits
 * them), but nobody tests it there. A line's first supported version can be later than its `.0`,
 * which the range says and the WARN's `supported` field shows: 22 from 22.12, the first 22 the
 * test tools run on (vitest's vite); Steward itself needs 22.2, the first 22 with `zlib.crc32`,
 * which the durable audit queue checks its records with.
 */
import semver from "semver";
import packageJson from "../../package.json" with { type: "json" };

/** package.json's `engines.node`. */
export const SUPPORTED_NODE_RANGE: string = packageJson.engines.node;

/** The major versions `range` admits, newest first. */
export function nodeLinesOf(range: string): number[] {
  const majors = new semver.Range(range).set.flatMap(([lowest]) =>
    lowest?.semver.major ? [lowest.semver.major] : [],
  );
  return [...new Set(majors)].sort((a, b) => b - a);
}

/** The supported lines, newest (the primary line) first. */
export const SUPPORTED_NODE_LINES: readonly number[] = nodeLinesOf(SUPPORTED_NODE_RANGE);

/** The supported lines as the WARN and the handbook name them: "Node.js 24 or 22". */
export const SUPPORTED_NODE_TEXT = `Node.js ${listed(SUPPORTED_NODE_LINES)}`;

function listed(lines: readonly number[]): string {
  const words = lines.map(String);
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** The WARN's message when `version` (as in `process.versions.node`) is outside the range; else undefined. */
export function unsupportedNodeWarning(
  version: string,
  range: string = SUPPORTED_NODE_RANGE,
): string | undefined {
  if (semver.satisfies(version, range, { includePrerelease: true })) return undefined;
  const lines = nodeLinesOf(range);
  return (
    `Node.js ${version} is not supported: install Node.js ${listed(lines)} (${lines[0]} is the primary line);` +
    " Steward starts anyway"
  );
}
