#!/usr/bin/env -S node --max-semi-space-size=8 --max-old-space-size=1024
// `npm start` and `npx steward ...`: bundles local/cli/main.ts (bin/bundle.mjs, about 0.2 s, so it
// always matches the sources) and runs it in this process, so signals from process managers reach
// Steward itself. The first line starts node with Steward's options (bin/node-flags.mjs). The
// bundling runs in a short-lived child process, so esbuild's memory never stays in Steward's.
// Stack traces point into the TypeScript sources. Where the bundle cannot be written (a read-only
// install), the last one built (`npm run build`) runs instead.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundleUrl } from "./bundle.mjs";

const entry = "local/cli/main.ts";
const url = bundleUrl(entry);
try {
  execFileSync(process.execPath, [fileURLToPath(new URL("bundle.mjs", import.meta.url)), entry], {
    stdio: ["ignore", "inherit", "inherit"],
  });
} catch (error) {
  // esbuild has printed its errors on stderr; say what happens next.
  const reason =
    error?.status === undefined ? String(error?.message ?? error) : `exit status ${error.status}`;
  if (!existsSync(new URL(url))) {
    process.stderr.write(
      `steward: cannot build ${entry} (${reason}); run \`npm run build\` where it can write dist/\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`steward: cannot rebuild ${entry} (${reason}); running the last build in dist/\n`);
}
process.setSourceMapsEnabled(true);
await import(url);
