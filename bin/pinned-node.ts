/**
 * `npx tsx bin/pinned-node.ts`: prints the directory holding the pinned Node's `node` (LINUX_NODE
 * in bin/package/pinned-packages.ts), after fetching it from the npm registry into
 * .package-cache/ with its integrity checked, unless a checked copy is there already. Put that
 * directory first on PATH to run anything on the primary line: .ci/run runs lint, typecheck, the
 * whole suite and the soak that way, and the benchmarks run on it the same way
 * (`PATH="$(npx tsx bin/pinned-node.ts):$PATH" npm run bench -- ingest`), since they start
 * Steward with the node that runs them. Progress goes to standard error, the directory alone to
 * standard output. Exits 1, saying why, when the package cannot be fetched or does not match.
 */
import { join } from "node:path";
import { fetchPinnedPackage } from "./package/npm-download.ts";
import { LINUX_NODE } from "./package/pinned-packages.ts";

const CACHE = join(import.meta.dirname, "..", ".package-cache");

try {
  process.stdout.write(`${join(fetchPinnedPackage(LINUX_NODE, CACHE), "bin")}\n`);
} catch (error) {
  process.stderr.write(
    `cannot fetch ${LINUX_NODE.name}@${LINUX_NODE.version}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
}
