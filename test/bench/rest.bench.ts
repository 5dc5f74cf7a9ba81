/**
 * REST API throughput against a trivial node:http server in the same run (issue 5 targets):
 *   GET /v4/ping ≥ 0.6×, GET /v4/keyvalues/{ns}?key= ≥ 0.5×, POST /v4/keyvalues/{ns} (durable:
 *   acknowledged after fdatasync) ≥ 0.3×.
 * Both servers run in one child process (rest-bench-servers.ts); autocannon drives them from
 * this process, one scenario at a time. The machine is shared, so throughput drifts between
 * runs: each scenario alternates baseline and Steward for `BENCH_ROUNDS` (default 3) rounds of
 * `BENCH_SECONDS` (default 3) and reports the median of the per-round ratios.
 * `BENCH_CONNECTIONS` (default 50) sets the concurrency.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { bundle } from "../../bin/bundle.mjs";
import { median } from "./order-statistics.ts";

interface Figure {
  baselineRps: number;
  stewardRps: number;
  ratio: number;
  /** Against the trivial server sending the same response headers (security headers). */
  sameHeadersRps: number;
  ratioSameHeaders: number;
  /** Bare Hono (same headers and body, plain serve()) against the trivial server: what the framework alone costs. */
  bareHonoRatio: number;
  target: number;
  stewardP99Ms: number;
  stewardNon2xx: number;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function startServers() {
  const child = spawn(
    process.execPath,
    // Bundled and run by plain `node`, as `npm start` runs Steward (bin/bundle.mjs).
    [fileURLToPath(bundle("test/bench/rest-bench-servers.ts"))],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench servers exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", resolve);
  });
  const ports = JSON.parse(line) as {
    baseline: number;
    sameHeaders: number;
    bareHono: number;
    steward: number;
    dir: string;
  };
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

async function measure(
  url: string,
  options: { method?: string; body?: (i: number) => string },
  warmUp: boolean,
) {
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
  if (warmUp) await autocannon({ url, connections, duration: 1, requests: [request] });
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
      const baselineRps: number[] = [];
      const stewardRps: number[] = [];
      const ratios: number[] = [];
      const sameHeadersRps: number[] = [];
      const sameHeadersRatios: number[] = [];
      const bareRatios: number[] = [];
      let p99 = 0;
      let failures = 0;
      for (let round = 0; round < rounds; round++) {
        const baseline = await measure(`${base(servers.baseline)}${path}`, options, round === 0);
        const steward = await measure(`${base(servers.steward)}${path}`, options, round === 0);
        const same = await measure(`${base(servers.sameHeaders)}${path}`, options, round === 0);
        sameHeadersRps.push(same.requests.average);
        sameHeadersRatios.push(steward.requests.average / same.requests.average);
        const bare = await measure(`${base(servers.bareHono)}${path}`, options, round === 0);
        bareRatios.push(bare.requests.average / baseline.requests.average);
        baselineRps.push(baseline.requests.average);
        stewardRps.push(steward.requests.average);
        ratios.push(steward.requests.average / baseline.requests.average);
        p99 = Math.max(p99, steward.latency.p99);
        failures += steward.non2xx + steward.errors;
      }
      const figure = {
        baselineRps: Math.round(median(baselineRps)),
        stewardRps: Math.round(median(stewardRps)),
        ratio: Number(median(ratios).toFixed(2)),
        sameHeadersRps: Math.round(median(sameHeadersRps)),
        ratioSameHeaders: Number(median(sameHeadersRatios).toFixed(2)),
        bareHonoRatio: Number(median(bareRatios).toFixed(2)),
        target,
        stewardP99Ms: p99,
        stewardNon2xx: failures,
      };
      figures[name] = figure;
      console.log(
        `${name.padEnd(36)} baseline ${String(figure.baselineRps).padStart(6)} req/s  steward ${String(figure.stewardRps).padStart(6)} req/s  ` +
          `ratio ${figure.ratio.toFixed(2)}× (target ≥ ${target}×) ${figure.ratio >= target ? "ok" : "BELOW TARGET"}  ` +
          `p99 ${figure.stewardP99Ms} ms  non-2xx ${figure.stewardNon2xx}  ` +
          `| vs same headers ${figure.sameHeadersRps} req/s: ${figure.ratioSameHeaders.toFixed(2)}×  ` +
          `| bare Hono vs trivial ${figure.bareHonoRatio.toFixed(2)}×`,
      );
    }
  } finally {
    await servers.stop();
  }
  return figures;
}
