/**
 * Loaded into Steward's process by the Qlik Cloud webhook benchmark with BENCH_CLOUD_PROBE=1
 * (`node --import`, bundled): records every garbage collection (a PerformanceObserver) and every
 * time a 2 ms timer fired more than 4 ms late (Steward's event loop busy, or its thread waiting
 * for a CPU), each as `[kind, start in wall-clock ms, duration ms]`, and writes them as JSON to
 * STEWARD_LOOP_PROBE_FILE when the process exits, so the benchmark can say what Steward's own
 * loop did while its slowest answers were awaited. Not product code: Steward runs without it.
 */
import { writeFileSync } from "node:fs";
import { PerformanceObserver, performance } from "node:perf_hooks";

const EVERY_MS = 2;
const LATE_MS = 4;
const events: [string, number, number][] = [];

new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    events.push(["gc", performance.timeOrigin + entry.startTime, entry.duration]);
}).observe({ entryTypes: ["gc"] });

let due = performance.now() + EVERY_MS;
setInterval(() => {
  const now = performance.now();
  const late = now - due;
  if (late > LATE_MS) events.push(["late", performance.timeOrigin + due, late]);
  due = now + EVERY_MS;
}, EVERY_MS).unref();

process.once("exit", () => {
  const file = process.env.STEWARD_LOOP_PROBE_FILE;
  if (file !== undefined) writeFileSync(file, JSON.stringify(events));
});
