/**
 * Lambda bundles: each handler bundled as `sst deploy` bundles it (test/helpers/lambda-bundle.ts): as deployed
 * (AWS SDK inside, code splitting on), in one file without splitting, and with the SDK left to
 * the runtime. Each variant's size, what a cold start loads of it, and its cold initialisation
 * measured as Lambda loads a handler: a fresh `node` process imports the entry (module load +
 * config parse + createApp, which the handlers do at the top level) and calls the handler once.
 * The first requests reach real stand-ins (dynalite for DynamoDB, local-aws-sqs for SQS) through
 * `AWS_ENDPOINT_URL_*`, so SDK client set-up and the first signed call count: ingest POSTs an
 * event (rate limit + SendMessage), REST lists key-value namespaces (rate limit + Query); the
 * consumer takes an empty batch; the Qlik Cloud webhook takes a new signed failed-reload event of
 * a simulated tenant (conditional PutItem, SendMessage of the run's key, embedded metrics), the
 * Qlik Cloud hand-on function an empty batch, and the Qlik Cloud poll
 * polls that tenant for a slot of its own (lease, OAuth token, reloads and audits, cursors). Median, fastest and slowest of `BENCH_RUNS` (default 7)
 * processes; the load average is printed, as other work on the machine slows every figure.
 * `BENCH_NODE=/path/to/node` runs the cold starts on that Node (e.g. 24, Lambda's runtime)
 * instead of this one. Bundles and metafiles are written to dist/lambda/<variant>/<function>/.
 *
 * Targets (docs/aws.md, "Runtime, bundles and cold start"): ingest and REST ≤ 1 MB and init ≤ 150 ms;
 * consumer ≤ 3 MB; the Qlik Cloud functions ≤ 1.5 MB.
 */
import { execFile } from "node:child_process";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { CreateQueueCommand, SQSClient } from "@aws-sdk/client-sqs";
import { createSqsServer } from "local-aws-sqs";
import { RATE_LIMIT_TABLE_KEY } from "../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { reloadEventBody } from "../../local/simulated-cloud/reload-event-bodies.ts";
import type { SimulatedTenant } from "../../local/simulated-cloud/simulated-tenant.ts";
import { startSimulatedCloud } from "../../local/simulated-cloud/start-simulated-cloud.ts";
import { apiGatewayEvent } from "../helpers/api-gateway-event.ts";
import { validEnvelope } from "../helpers/audit-envelopes.ts";
import { startDynalite } from "../helpers/dynalite-server.ts";
import { bundleLambda, type LambdaBundleOptions } from "../helpers/lambda-bundle.ts";
import { signedDelivery } from "../helpers/qlik-cloud-functions.ts";
import { median } from "./order-statistics.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const NODE = process.env.BENCH_NODE || process.execPath;
const root = path.resolve(import.meta.dirname, "../..");
const MB = 1_000_000;

interface LambdaFunction {
  name: string;
  entry: string;
  /** The first request's event, or a maker of a new one for every cold start. */
  event: unknown;
  maxBytes: number;
  maxInitMs?: number;
}

const functions: LambdaFunction[] = [
  {
    name: "audit-ingest",
    entry: "functions/audit-ingest/handler.ts",
    event: apiGatewayEvent({
      method: "POST",
      path: "/api/v1/audit-event",
      headers: {
        "content-type": "application/json",
        "x-audit-client-version": "0.3.0",
        authorization: "Bearer tok",
      },
      body: JSON.stringify(validEnvelope()),
    }),
    maxBytes: 1 * MB,
    maxInitMs: 150,
  },
  {
    name: "rest",
    entry: "functions/rest/handler.ts",
    event: apiGatewayEvent({
      method: "GET",
      path: "/v4/keyvaluesnamespaces",
      headers: { authorization: "Bearer tok" },
    }),
    maxBytes: 1 * MB,
    maxInitMs: 150,
  },
  {
    name: "audit-consumer",
    entry: "functions/audit-consumer/handler.ts",
    event: { Records: [] },
    maxBytes: 3 * MB,
  },
];

/** The first is what infra/functions.ts deploys and is judged against the targets. */
/** The simulated tenant the Qlik Cloud functions take events from and poll (started by `run`). */
let tenant: SimulatedTenant | undefined;
/** Each poll's slot is a new one, so that every cold start polls rather than finding the slot taken. */
let pollSlot = Date.UTC(2026, 0, 1);

functions.push(
  {
    name: "qlik-cloud-webhook",
    entry: "functions/qlik-cloud/webhook-function.ts",
    event: () => {
      const reload = tenant!.finishReload({ status: "FAILED" });
      const body = JSON.stringify(reloadEventBody(tenant!.fixture, reload, "cloudevents"));
      return signedDelivery(tenant!.fixture.name, body, tenant!.fixture.webhookSecret);
    },
    maxBytes: 1.5 * MB,
  },
  {
    name: "qlik-cloud-hand-on",
    entry: "functions/qlik-cloud/hand-on-function.ts",
    event: { Records: [] },
    maxBytes: 1.5 * MB,
  },
  {
    name: "qlik-cloud-poll",
    entry: "functions/qlik-cloud/poll-function.ts",
    event: () => {
      pollSlot += 10 * 60_000;
      return { time: new Date(pollSlot).toISOString() };
    },
    maxBytes: 1.5 * MB,
  },
);

const VARIANTS: Array<LambdaBundleOptions & { name: string; dir: string }> = [
  { name: "deployed (SDK bundled, split)", dir: "deployed", sdk: "bundled", splitting: true },
  { name: "SDK bundled, one file", dir: "one-file", sdk: "bundled", splitting: false },
  { name: "SDK external, split", dir: "sdk-external", sdk: "external", splitting: true },
];

/** Runs in each fresh process: import the bundle, call the handler once, print the timings. */
const CHILD = `
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const { handler } = await import(process.env.BENCH_BUNDLE);
const t1 = performance.now();
const context = { awsRequestId: "bench", getRemainingTimeInMillis: () => 20000 };
const result = await handler(JSON.parse(process.env.BENCH_EVENT), context);
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(JSON.stringify({ loadMs: t1 - t0, firstMs: t2 - t1, cpuMs, status: result?.statusCode ?? "ok" }));
process.exit(0);
`;

interface Timing {
  loadMs: number;
  firstMs: number;
  /** CPU time of the process over load + first request (all its threads): less sensitive to other load. */
  cpuMs: number;
  status: number | string;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;

async function coldStart(file: string, event: unknown, env: Record<string, string>): Promise<Timing> {
  const { stdout } = await promisify(execFile)(NODE, ["--input-type=module", "-e", CHILD], {
    cwd: path.dirname(file),
    env: {
      ...env,
      BENCH_BUNDLE: pathToFileURL(file).href,
      BENCH_EVENT: JSON.stringify(typeof event === "function" ? event() : event),
    },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Timing;
}

export async function run(): Promise<void> {
  // This process's own SQS client runs on the developer's Node, which the SDK may warn about.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
  const sqsServer: Server = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
  const sqsEndpoint = `http://127.0.0.1:${(sqsServer.address() as AddressInfo).port}`;
  const sqs = new SQSClient({
    endpoint: sqsEndpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "bench", secretAccessKey: "bench" },
  });
  const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: "audit-events" }))).QueueUrl!;
  const dynamo = await startDynalite();
  await dynamo.createTable("rate-limit", RATE_LIMIT_TABLE_KEY);
  await dynamo.createTable("key-values", "pk", "sk");
  await dynamo.createTable("schedules", "id");
  await dynamo.createTable("qlik-cloud", "pk", "sk");
  const cloud = await startSimulatedCloud({ tenants: 1 });
  [tenant] = cloud.tenants;

  const link = (value: Record<string, string>) => JSON.stringify(value);
  // What Lambda and SST give a function: the region, credentials, the links.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "bench",
    AWS_SECRET_ACCESS_KEY: "bench",
    AWS_ENDPOINT_URL_SQS: sqsEndpoint,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    SST_RESOURCE_App: link({ name: "steward", stage: "bench" }),
    SST_RESOURCE_StewardConfig: link({
      value: [
        "Service:\n  logLevel: warn\n  auditEvents:\n    enable: true\n    apiToken: tok\n  restServer:\n    apiToken: tok\n",
        "  qlikCloud:\n    enable: true\n    tenants:\n",
        `      - name: ${tenant!.fixture.name}\n        url: ${tenant!.url}\n`,
        `        auth: { oauth: { clientId: ${tenant!.fixture.clientId}, clientSecret: ${tenant!.fixture.clientSecret} } }\n`,
        `        webhook: { enable: true, secret: ${tenant!.fixture.webhookSecret} }\n`,
        "        poll: { enable: true, initialHours: 1 }\n",
      ].join(""),
    }),
    SST_RESOURCE_AuditEventQueue: link({ url: queueUrl }),
    SST_RESOURCE_RateLimitTable: link({ name: "rate-limit" }),
    SST_RESOURCE_KeyValueTable: link({ name: "key-values" }),
    SST_RESOURCE_ScheduleTable: link({ name: "schedules" }),
    SST_RESOURCE_AuditEventsBucket: link({ name: "audit-events" }),
    SST_RESOURCE_QlikCloudTable: link({ name: "qlik-cloud" }),
    // The audit queue stands in for the runs' queue: nothing consumes either here.
    SST_RESOURCE_QlikCloudRunQueue: link({ url: queueUrl }),
  };

  const { stdout: nodeVersion } = await promisify(execFile)(NODE, ["--version"]);
  console.log(`cold starts on node ${nodeVersion.trim()}, ${RUNS} each`);
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")} on ${cpus().length} CPUs`,
  );
  console.log(
    "| function | variant | package (files) | zipped | loaded at start (files) | load + createApp | first request | init median | init fastest / slowest | init CPU time | target |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  const largest: string[] = [];
  try {
    for (const fn of functions) {
      for (const variant of VARIANTS) {
        const outDir = path.join(root, "dist/lambda", variant.dir, fn.name);
        const bundle = await bundleLambda(path.join(root, fn.entry), outDir, variant);
        const timings: Timing[] = [];
        for (let i = 0; i < RUNS; i++) timings.push(await coldStart(bundle.file, fn.event, env));
        const inits = timings.map((t) => t.loadMs + t.firstMs);
        const load = median(timings.map((t) => t.loadMs));
        const first = median(timings.map((t) => t.firstMs));
        const init = median(inits);
        const fastest = Math.min(...inits);
        const slowest = Math.max(...inits);
        const cpuMs = median(timings.map((t) => t.cpuMs));
        const statuses = [...new Set(timings.map((t) => t.status))].join(",");
        const sizeOk = bundle.bytes <= fn.maxBytes;
        const initOk = fn.maxInitMs === undefined || init <= fn.maxInitMs;
        const target = `≤ ${fn.maxBytes / MB} MB${fn.maxInitMs ? `, ≤ ${fn.maxInitMs} ms (median)` : ""}: ${sizeOk && initOk ? "met" : "MISSED"}`;
        console.log(
          `| ${fn.name} | ${variant.name} | ${kb(bundle.bytes)} (${bundle.files}) | ${kb(bundle.zippedBytes)} | ` +
            `${kb(bundle.startBytes)} (${bundle.startFiles}) | ${load.toFixed(0)} ms | ${first.toFixed(0)} ms (${statuses}) | ` +
            `${init.toFixed(0)} ms | ${fastest.toFixed(0)} / ${slowest.toFixed(0)} ms | ${cpuMs.toFixed(0)} ms | ${variant === VARIANTS[0] ? target : ""} |`,
        );
        if (variant === VARIANTS[0]) {
          const top = bundle.contributors.slice(0, 8).map((c) => `${c.name} ${kb(c.bytes)}`);
          largest.push(`${fn.name}: ${top.join(", ")}`);
        }
      }
    }
    console.log(`\nLargest parts a cold start loads (${VARIANTS[0]!.name}):`);
    for (const line of largest) console.log(`- ${line}`);
  } finally {
    sqs.destroy();
    await dynamo.close();
    await cloud.stop();
    await new Promise<void>((resolve) => sqsServer.close(() => resolve()));
  }
}
