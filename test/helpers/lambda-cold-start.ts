/**
 * A bundled Lambda handler run the way Lambda runs it: a fresh `node` process imports the entry
 * (`handler.mjs`, from its own directory) and calls the handler once per event, in order; the
 * results come back parsed, with what the process wrote to stderr (its warnings and errors, as
 * Lambda would send them to CloudWatch). The process gets what Lambda and SST give a function (a
 * region, credentials, the app's link) plus the linked `resources` (`SST_RESOURCE_<name>`) and `env`.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { LambdaResult } from "./api-gateway-event.ts";

const CHILD = `
const { handler } = await import(process.env.BUNDLE);
const context = { awsRequestId: "test", getRemainingTimeInMillis: () => 20000 };
const results = [];
for (const event of JSON.parse(process.env.EVENTS)) results.push(await handler(event, context));
console.log(JSON.stringify(results));
`;

export interface ColdStartOptions {
  /** SST's linked resources by name, e.g. `{ RateLimitTable: { name: "rate-limit" } }`. */
  resources: Record<string, Record<string, string>>;
  env?: Record<string, string>;
}

export interface ColdStartRun {
  results: LambdaResult[];
  /** The process's stderr, one entry per line. */
  stderrLines: string[];
  /** What the process wrote to stdout before the results (its INFO lines, embedded metrics), one entry per line. */
  stdoutLines: string[];
}

export async function coldStart(
  bundleFile: string,
  events: unknown[],
  options: ColdStartOptions,
): Promise<LambdaResult[]> {
  return (await coldStartRun(bundleFile, events, options)).results;
}

export async function coldStartRun(
  bundleFile: string,
  events: unknown[],
  options: ColdStartOptions,
): Promise<ColdStartRun> {
  const linked = Object.fromEntries(
    Object.entries({ App: { name: "steward", stage: "test" }, ...options.resources }).map(([name, value]) => [
      `SST_RESOURCE_${name}`,
      JSON.stringify(value),
    ]),
  );
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", CHILD],
    {
      cwd: path.dirname(bundleFile),
      env: {
        PATH: process.env.PATH ?? "",
        AWS_REGION: "us-east-1",
        AWS_ACCESS_KEY_ID: "test",
        AWS_SECRET_ACCESS_KEY: "test",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
        ...linked,
        ...options.env,
        BUNDLE: pathToFileURL(bundleFile).href,
        EVENTS: JSON.stringify(events),
      },
    },
  );
  const lines = stdout.trim().split("\n");
  return {
    results: JSON.parse(lines.at(-1) as string) as LambdaResult[],
    stderrLines: stderr.split("\n").filter((line) => line !== ""),
    stdoutLines: lines.slice(0, -1).filter((line) => line !== ""),
  };
}
