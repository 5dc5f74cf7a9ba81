/**
 * The soak's paced client: POSTs at a fixed rate (open loop: requests go out on schedule whether
 * or not earlier ones were answered, so a slow server cannot slow the load down and hide its own
 * latency), over a pool of keep-alive connections. Each request's latency runs from the moment
 * it is issued (queueing for a free connection included) to the end of its answer, and is filed
 * under the window in which it was issued. Each event's answer is noted by its number, for the
 * counts afterwards.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

export interface PacedLoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Requests per second. */
  rate: number;
  durationMs: number;
  windowMs: number;
  /** The next request's event number and body. */
  next(): { seq: number; body: string };
  /** The answer's status (0: none, the request failed). */
  answered(seq: number, status: number): void;
  /** Called at the end of each window, once its requests are issued (they may still be in flight). */
  onWindowIssued?(index: number): void;
}

export interface LoadWindow {
  index: number;
  issued: number;
  /** Latencies in ms of the window's answered requests, sorted once the load is done. */
  latenciesMs: number[];
  statuses: Map<number, number>;
}

export interface PacedLoadResult {
  windows: LoadWindow[];
  issued: number;
  /** Requests that were due but not issued because too many were still in flight. */
  notIssued: number;
  elapsedMs: number;
}

const CONNECTIONS = 50;
/** Past this many requests in flight the client stops issuing (and counts what it skipped). */
const MAX_IN_FLIGHT = 5000;
const TICK_MS = 1;
const REQUEST_TIMEOUT_MS = 30_000;

export async function runPacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const windowCount = Math.ceil(options.durationMs / options.windowMs);
  const windows: LoadWindow[] = Array.from({ length: windowCount }, (_, index) => ({
    index,
    issued: 0,
    latenciesMs: [],
    statuses: new Map(),
  }));
  let issued = 0;
  let notIssued = 0;
  let inFlight = 0;
  let settled: (() => void) | undefined;

  function issue(window: LoadWindow): void {
    const { seq, body } = options.next();
    const started = performance.now();
    inFlight += 1;
    window.issued += 1;
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      inFlight -= 1;
      window.statuses.set(status, (window.statuses.get(status) ?? 0) + 1);
      if (status !== 0) window.latenciesMs.push(performance.now() - started);
      options.answered(seq, status);
      if (inFlight === 0) settled?.();
    };
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { ...options.headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => finish(res.statusCode ?? 0));
        res.on("error", () => finish(0));
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error("no answer in time")));
    req.on("error", () => finish(0));
    req.end(body);
  }

  const startedAt = performance.now();
  await new Promise<void>((resolve) => {
    let lastWindow = -1;
    const timer = setInterval(() => {
      const elapsed = performance.now() - startedAt;
      const index = Math.min(windowCount - 1, Math.floor(elapsed / options.windowMs));
      for (let w = lastWindow; w < index; w++) if (w >= 0) options.onWindowIssued?.(w);
      lastWindow = index;
      const due =
        Math.floor((Math.min(elapsed, options.durationMs) * options.rate) / 1000) - issued - notIssued;
      const window = windows[index] as LoadWindow;
      for (let i = 0; i < due; i++) {
        if (inFlight >= MAX_IN_FLIGHT) notIssued += 1;
        else {
          issued += 1;
          issue(window);
        }
      }
      if (elapsed >= options.durationMs) {
        clearInterval(timer);
        options.onWindowIssued?.(windowCount - 1);
        resolve();
      }
    }, TICK_MS);
  });
  if (inFlight > 0) await new Promise<void>((resolve) => (settled = resolve));
  const elapsedMs = performance.now() - startedAt;
  agent.destroy();
  for (const window of windows) window.latenciesMs.sort((a, b) => a - b);
  return { windows, issued, notIssued, elapsedMs };
}
