/**
 * Child process of the polling benchmark: times `GET /metrics` as a scraper of its own would, in
 * a process that does nothing else, so the benchmark's own work (the MQTT subscriber counting
 * 900 messages a second, the capture server) never delays reading an answer.
 * Usage: node polling-scraper.mjs PORT SECONDS EVERY_MS [gzip]
 * Every EVERY_MS for SECONDS: one GET /metrics over one keep-alive connection (with
 * `Accept-Encoding: gzip` when asked), timed from the request to the last byte of the body.
 * Sends `{latencies: [ms, ...], bytes, text}` over IPC (`text`: the last answer, unpacked) and exits.
 */
import { Agent, request } from "node:http";
import { gunzipSync } from "node:zlib";

const [portText = "0", secondsText = "20", everyText = "250", mode = ""] = process.argv.slice(2);
const port = Number(portText);
const gzip = mode === "gzip";
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function scrape(): Promise<{ ms: number; body: Buffer; gzipped: boolean }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/metrics",
        agent,
        timeout: 10_000,
        headers: gzip ? { "Accept-Encoding": "gzip" } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const ms = performance.now() - started;
          if (res.statusCode !== 200) reject(new Error(`GET /metrics answered ${res.statusCode}`));
          else
            resolve({ ms, body: Buffer.concat(chunks), gzipped: res.headers["content-encoding"] === "gzip" });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("GET /metrics took longer than 10 s")));
    req.on("error", reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const latencies: number[] = [];
let last: { body: Buffer; gzipped: boolean } | undefined;
const start = performance.now();
while (performance.now() - start < Number(secondsText) * 1000) {
  const tickAt = performance.now();
  const answer = await scrape();
  if (answer.gzipped !== gzip)
    throw new Error(`GET /metrics: gzip asked ${gzip}, answered ${answer.gzipped}`);
  latencies.push(answer.ms);
  last = answer;
  await sleep(Math.max(0, Number(everyText) - (performance.now() - tickAt)));
}
agent.destroy();
const text = last === undefined ? "" : (last.gzipped ? gunzipSync(last.body) : last.body).toString("utf8");
process.send?.({ latencies, bytes: last?.body.length ?? 0, text }, () => process.exit(0));
