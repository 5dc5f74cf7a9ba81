#!/usr/bin/env node
// `npx steward ...`: runs local/main.ts in this process (TypeScript loaded through tsx), so
// signals from process managers reach Steward itself.
import { register } from "tsx/esm/api";

register();
await import("../local/main.ts");
