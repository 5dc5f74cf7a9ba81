/**
 * Debian's Prometheus (`prometheus`, which brings `promtool`) on an ephemeral loopback port with a
 * temporary data directory and a generated configuration: one scrape job `steward` for the given
 * targets, and the given rule files. Absent binary: tests skip loudly outside CI and fail in CI.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { freePort } from "./free-port.ts";

export const prometheusAvailable =
  spawnSync("which", ["prometheus"]).status === 0 && spawnSync("which", ["promtool"]).status === 0;

/** Call at module level of a test file; returns true when the tests must be skipped. */
export function skipWithoutPrometheus(): boolean {
  if (prometheusAvailable) return false;
  if (process.env.CI === "true")
    throw new Error("prometheus is required in CI (apt-get install -y prometheus)");
  console.warn(
    "\n*** prometheus not installed: Prometheus tests SKIPPED (apt-get install -y prometheus) ***\n",
  );
  return true;
}

export interface PrometheusOptions {
  /** `host:port` of each Steward scrape endpoint. */
  targets: readonly string[];
  /** Labels the scrape job gives its targets (as the example configuration's `qs_env`). */
  targetLabels?: Readonly<Record<string, string>>;
  /** Absolute paths. */
  ruleFiles?: readonly string[];
  /** Scrape and rule evaluation interval, e.g. `1s`. */
  interval: string;
}

export interface PrometheusAlert {
  labels: Record<string, string>;
  state: "pending" | "firing";
  activeAt: string;
}

export interface Prometheus {
  readonly url: string;
  /** `GET /api/v1/<path>` with the parameters; the answer's `data`, or a thrown error. */
  api(apiPath: string, params?: Record<string, string>): Promise<unknown>;
  alerts(): Promise<PrometheusAlert[]>;
  /**
   * Resolves once every target was scraped `count` times. Prometheus starts scraping a few
   * seconds after it is ready (its target discovery sends the first targets after a delay), and
   * a rate needs two scrapes in its window.
   */
  scraped(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startPrometheus(options: PrometheusOptions): Promise<Prometheus> {
  const directory = await mkdtemp(path.join(tmpdir(), "steward-prometheus-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = {
    global: { scrape_interval: options.interval, evaluation_interval: options.interval },
    rule_files: options.ruleFiles ?? [],
    scrape_configs: [
      {
        job_name: "steward",
        honor_labels: true,
        static_configs: [{ targets: options.targets, labels: options.targetLabels ?? {} }],
      },
    ],
  };
  const configFile = path.join(directory, "prometheus.yml");
  await writeFile(configFile, stringify(config));
  const child: ChildProcess = spawn(
    "prometheus",
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(directory, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));

  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`prometheus did not become ready:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  async function api(apiPath: string, params: Record<string, string> = {}): Promise<unknown> {
    const answer = await fetch(`${url}/api/v1/${apiPath}?${new URLSearchParams(params)}`);
    const body = (await answer.json()) as { status: string; data?: unknown; error?: string };
    if (body.status !== "success") throw new Error(`${apiPath} ${JSON.stringify(params)}: ${body.error}`);
    return body.data;
  }

  return {
    url,
    api,
    async alerts() {
      return ((await api("alerts")) as { alerts: PrometheusAlert[] }).alerts;
    },
    async scraped(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const data = (await api("query", { query: 'count_over_time(up{job="steward"}[10m])' })) as {
          result: { value: [number, string] }[];
        };
        const counts = data.result.map((series) => Number(series.value[1]));
        if (counts.length === options.targets.length && counts.every((n) => n >= count)) return;
        if (Date.now() > deadline)
          throw new Error(`targets not scraped ${count} times: ${JSON.stringify(counts)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async close() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
