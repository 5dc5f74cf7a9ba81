/**
 * Child process of the polling benchmark: the trivial poller to compare Steward with. Every
 * INTERVAL_MS (first round at start) it GETs `/engine/healthcheck` of every server and, on the
 * same beat, the root proxy's `/qps/session` (the calls Steward's two pollers make), through one
 * keep-alive https.Agent with the client certificate, each of the two lists 10 calls at a time,
 * and only JSON.parses the answers. A beat that finds its round still running is skipped.
 * Usage: node polling-trivial-poller.mjs PKI_DIR INTERVAL_MS PORT,PORT,...
 * Answers the parent's "stats" message over IPC with every completed round (its start and
 * duration, both ms, and its failed calls) and the skipped beats.
 */
import { readFileSync } from "node:fs";
import { Agent, request } from "node:https";

const [directory = ".", intervalText = "5000", portsText = ""] = process.argv.slice(2);
const ports = portsText.split(",").map(Number);
const read = (name: string) => readFileSync(`${directory}/${name}`);
const CONCURRENCY = 10;
const XRFKEY = "abcdefghij012345";

const agent = new Agent({
  keepAlive: true,
  cert: read("client.pem"),
  key: read("client_key.pem"),
  ca: read("root.pem"),
});

function get(port: number, path: string, headers: Record<string, string>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: "GET", agent, headers, timeout: 5000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          try {
            if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end();
  });
}

/** Calls `call` for every port, at most CONCURRENCY at once; resolves with the failures. */
async function each(call: (port: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < ports.length) {
      const port = ports[next++] as number;
      await call(port).catch(() => {
        failed += 1;
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failed;
}

interface Round {
  startedMs: number;
  durationMs: number;
  failed: number;
}

const rounds = { health: [] as Round[], sessions: [] as Round[] };
const running = { health: false, sessions: false };
const skipped = { health: 0, sessions: 0 };
const calls = {
  health: (port: number) => get(port, "/engine/healthcheck", { "Cache-Control": "no-cache" }),
  sessions: (port: number) =>
    get(port, `/qps/session?Xrfkey=${XRFKEY}`, { "X-Qlik-Xrfkey": XRFKEY, "Cache-Control": "no-cache" }),
};

function beat(kind: "health" | "sessions"): void {
  if (running[kind]) {
    skipped[kind] += 1;
    return;
  }
  running[kind] = true;
  const startedMs = performance.timeOrigin + performance.now();
  const started = performance.now();
  void each(calls[kind]).then((failed) => {
    rounds[kind].push({ startedMs, durationMs: performance.now() - started, failed });
    running[kind] = false;
  });
}

const tick = () => {
  beat("health");
  beat("sessions");
};
tick();
const timer = setInterval(tick, Number(intervalText));

process.on("message", (message) => {
  if (message === "stats") process.send?.({ rounds, skipped });
});
const stop = () => {
  clearInterval(timer);
  agent.destroy();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("disconnect", stop);
process.send?.({ ready: true });
