/**
 * Loaded into Steward's process by the ingest benchmark (`node --import`, bundled): measures each
 * answer's time inside Steward, from its request's headers being parsed to the last byte of its
 * answer handed to the socket (`http.server.request.start` to `http.server.response.finish`), in a
 * histogram of fixed size. On SIGUSR2 it appends `<count> <p50> <p99> <p99.9> <max>` (ms) to
 * STEWARD_ANSWER_PROBE_FILE and starts again, so the benchmark reads one line per round and can
 * tell the time Steward took from the time the client saw. Not product code: Steward runs without it.
 */
import { subscribe } from "node:diagnostics_channel";
import { appendFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createHistogram } from "node:perf_hooks";

const histogram = createHistogram();
const started = new WeakMap<IncomingMessage, bigint>();

subscribe("http.server.request.start", (message) => {
  started.set((message as { request: IncomingMessage }).request, process.hrtime.bigint());
});
subscribe("http.server.response.finish", (message) => {
  const start = started.get((message as { request: IncomingMessage }).request);
  if (start !== undefined) histogram.record(process.hrtime.bigint() - start || 1n);
});

const ms = (nanoseconds: number) => (nanoseconds / 1e6).toFixed(3);

process.on("SIGUSR2", () => {
  const file = process.env.STEWARD_ANSWER_PROBE_FILE;
  if (file !== undefined)
    appendFileSync(
      file,
      `${histogram.count} ${ms(histogram.percentile(50))} ${ms(histogram.percentile(99))} ${ms(histogram.percentile(99.9))} ${ms(histogram.max)}\n`,
    );
  histogram.reset();
});
