#!/usr/bin/env node
// `npm start` and `npx steward ...`: bundles local/main.ts (bin/bundle.mjs, about 0.2 s, so it
// always matches the sources) and runs it in this process, so signals from process managers reach
// Steward itself. Stack traces point into the TypeScript sources.
import { bundle } from "./bundle.mjs";

process.setSourceMapsEnabled(true);
await import(bundle("local/main.ts"));
