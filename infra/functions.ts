/**
 * Settings shared by every Steward function.
 * - Runtime `nodejs24.x` on `arm64` (Graviton: about 20% cheaper per GB-second than x86_64, and
 *   Steward has no native modules). Node 20 reached its end of life in April 2026; Node 22 is
 *   in maintenance until April 2027, after which Lambda deprecates `nodejs22.x`; Node 24 is
 *   supported until April 2028. The handlers are all async (the Node 24 runtime no longer takes
 *   callback handlers); the local runtime supports the same lines, 24 and 22 (package.json
 *   engines).
 * - Bundling as SST does by default (esbuild, ESM, minified, tree-shaken, one bundle per
 *   function) with the AWS SDK v3 inside the bundle: the clients run at the versions
 *   package-lock.json pins and the tests ran, not whatever SDK the runtime carries that month.
 *   With code splitting: what the code imports dynamically (the MQTT client, the API documents'
 *   generators, the SDK's unused credential sources) goes to chunk files loaded only when first
 *   used, so a cold start neither loads nor compiles it (the REST function: 972 kB read and compiled
 *   at every cold start before, 575 kB now).
 *   `npm run bench -- lambda` measures each bundle and its cold initialisation (docs/aws.md,
 *   "Runtime, bundles and cold start").
 * - Logs kept for LOG_RETENTION, not forever (SST's default for functions).
 * - Grants: the links carry names only (infra/links.ts); each function lists the actions its code
 *   sends in its `permissions`, and its reserved concurrency comes from infra/limits.ts.
 */
import "./links.ts";
import { stewardConfig } from "./secrets.ts";

/** How long CloudWatch keeps the functions' and the API's logs. */
export const LOG_RETENTION = "1 month";

/**
 * The Lambda runtimes Steward's bundles may run on: Node.js (the handlers are JavaScript) in a
 * version that Lambda still supports. SST also accepts `nodejs18.x` and `nodejs20.x`, whose Node
 * versions have reached their end of life, and other languages' runtimes. The defaults are
 * checked against SST's function arguments here, so a wrong value is reported where it is set.
 */
type SupportedRuntime = "nodejs22.x" | "nodejs24.x";

export const functionDefaults = {
  runtime: "nodejs24.x",
  architecture: "arm64",
  memory: "512 MB",
  timeout: "20 seconds",
  logging: { retention: LOG_RETENTION },
  nodejs: { format: "esm", minify: true, splitting: true },
  link: [stewardConfig],
} satisfies Partial<sst.aws.FunctionArgs> & { runtime: SupportedRuntime };
