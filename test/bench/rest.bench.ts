/**
 * REST API throughput against a trivial node:http server in the same run (issue 5 targets):
 *   GET /v4/ping ≥ 0.6×, GET /v4/keyvalues/{ns}?key= ≥ 0.5×, POST /v4/keyvalues/{ns} (durable:
 *   acknowledged after fdatasync) ≥ 0.3×.
 * Both servers run in one child process (rest-bench-servers.ts); autocannon drives them from
 * this process, one scenario at a time, baseline first. `BENCH_SECONDS` (default 5) and
 * `BENCH_CONNECTIONS` (default 50) tune the runs.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";

interface Figure {
  baselineRps: number;
  stewardRps: number;
  ratio: number;
  target: number;
  stewardP99Ms: number;
  stewardNon2xx: number;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function startServers() {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "rest-bench-servers.ts")],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench servers exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", resolve);
  });
  const ports = JSON.parse(line) as { baseline: number; steward: number; dir: string };
  return {
    ...ports,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      await rm(ports.dir, { recursive: true, force: true });
    },
  };
}

async function measure(url: string, options: { method?: string; body?: (i: number) => string }) {
  let counter = 0;
  const request =
    options.body === undefined
      ? { method: options.method ?? "GET" }
      : {
          method: options.method ?? "POST",
          headers: { "content-type": "application/json" },
          setupRequest: (req: object) => ({ ...req, body: options.body!(counter++) }),
        };
  // A short warm-up so JIT and connection set-up do not count.
  await autocannon({ url, connections, duration: 1, requests: [request] });
  return autocannon({ url, connections, duration: seconds, requests: [request] });
}

export async function run(): Promise<Record<string, Figure>> {
  const servers = await startServers();
  const base = (port: number) => `http://127.0.0.1:${port}`;
  const scenarios: [string, string, number, { method?: string; body?: (i: number) => string }][] = [
    ["GET /v4/ping", "/v4/ping", 0.6, {}],
    ["GET /v4/keyvalues/{ns}?key=", "/v4/keyvalues/bench?key=key", 0.5, {}],
    [
      "POST /v4/keyvalues/{ns} (durable)",
      "/v4/keyvalues/bench",
      0.3,
      { body: (i) => JSON.stringify({ key: `k${i % 500}`, value: `value-${i}`, ttl: 0 }) },
    ],
  ];
  const figures: Record<string, Figure> = {};
  try {
    for (const [name, path, target, options] of scenarios) {
      const baseline = await measure(`${base(servers.baseline)}${path}`, options);
      const steward = await measure(`${base(servers.steward)}${path}`, options);
      const figure = {
        baselineRps: Math.round(baseline.requests.average),
        stewardRps: Math.round(steward.requests.average),
        ratio: Number((steward.requests.average / baseline.requests.average).toFixed(2)),
        target,
        stewardP99Ms: steward.latency.p99,
        stewardNon2xx: steward.non2xx + steward.errors,
      };
      figures[name] = figure;
      console.log(
        `${name.padEnd(36)} baseline ${String(figure.baselineRps).padStart(6)} req/s  steward ${String(figure.stewardRps).padStart(6)} req/s  ` +
          `ratio ${figure.ratio.toFixed(2)}× (target ≥ ${target}×) ${figure.ratio >= target ? "ok" : "BELOW TARGET"}  ` +
          `p99 ${figure.stewardP99Ms} ms  non-2xx ${figure.stewardNon2xx}`,
      );
    }
  } finally {
    await servers.stop();
  }
  return figures;
}
