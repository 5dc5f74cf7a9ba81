/**
 * The soak's capacity measurement: autocannon flat out (50 connections, as the ingest benchmark)
 * with the soak's events, first a warm-up, then a fixed number of requests sized from the
 * warm-up's rate to last about `seconds` (once more, sized from its own rate, if it ended before
 * 60 % of that). A fixed number rather than a duration, so that every
 * request is answered before the run ends and each event's answer is known (a run cut at a time
 * leaves requests in flight whose events the server may have taken).
 */
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";

export interface CapacityOptions {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  next(): { seq: number; body: string };
  answered(seq: number, status: number): void;
}

export interface Capacity {
  /** 202s per second of the measured run. */
  rps: number;
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 202, errors and timeouts, warm-up and earlier runs included. */
  failed: number;
}

const CONNECTIONS = 50;
const WARMUP_REQUESTS = 4000;

async function flatOut(options: CapacityOptions, amount: number) {
  let accepted = 0;
  let failed = 0;
  const started = performance.now();
  const result = await autocannon({
    url: options.url,
    connections: CONNECTIONS,
    amount,
    method: "POST",
    headers: { ...options.headers },
    requests: [
      {
        setupRequest(request, context) {
          const { seq, body } = options.next();
          context.seq = seq;
          return { ...request, body };
        },
        onResponse(status, _body, context) {
          if (status === 202) accepted += 1;
          else failed += 1;
          options.answered(context.seq as number, status);
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  return { accepted, failed: failed + result.errors, seconds, result };
}

export async function measureCapacity(options: CapacityOptions): Promise<Capacity> {
  const warmup = await flatOut(options, WARMUP_REQUESTS);
  let failed = warmup.failed;
  let rate = warmup.accepted / warmup.seconds;
  let amount = 0;
  let run: Awaited<ReturnType<typeof flatOut>> | undefined;
  // The warm-up runs slower than a warm server: if the run sized from it ends too soon, size the
  // next from the run's own rate.
  for (
    let attempt = 0;
    attempt < 3 && (run === undefined || run.seconds < options.seconds * 0.6);
    attempt++
  ) {
    if (run !== undefined) failed += run.failed;
    amount = Math.max(WARMUP_REQUESTS, Math.round(rate * options.seconds));
    run = await flatOut(options, amount);
    rate = run.accepted / run.seconds;
  }
  if (run === undefined) throw new Error("the capacity run did not run");
  return {
    rps: Math.round(run.accepted / run.seconds),
    requests: amount,
    seconds: Number(run.seconds.toFixed(2)),
    p50Ms: run.result.latency.p50,
    p99Ms: run.result.latency.p99,
    failed: failed + run.failed,
  };
}
