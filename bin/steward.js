#!/usr/bin/env node
// `npm start` and `npx steward ...`: bundles local/cli/main.ts (bin/bundle.mjs, about 0.2 s, so it
// always matches the sources) and runs it in this process, so signals from process managers reach
// Steward itself. Stack traces point into the TypeScript sources. Where the bundle cannot be
// written (a read-only install), the last one built (`npm run build`) runs instead.
import { existsSync } from "node:fs";
import { bundle, bundleUrl } from "./bundle.mjs";

const entry = "local/cli/main.ts";
let url;
try {
  url = bundle(entry);
} catch (error) {
  url = bundleUrl(entry);
  // esbuild has printed its errors; name the first one again beside what happens next.
  const reason = error?.errors?.[0]?.text ?? (error instanceof Error ? error.message : String(error));
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
