/**
 * What the uptime monitor reports at each occurrence:
 * - the log line `Iteration # <n>, Uptime: <M> months, <D> days, <H> hours, <m> minutes, <s>
 *   seconds, Heap used <a> MB of total heap <b> MB. External (off-heap): <c> MB. Memory allocated
 *   to process: <d> MB.` (n with en-US thousands separators; months of 30 days, never wrapped at
 *   a year, so a long uptime is never shown shorter than it is);
 * - the time-series point `steward_memory_usage`, tags `instance` and `version`, float fields in
 *   MB with 2 decimals: `heap_used`, `heap_total`, `external`, `process_memory`;
 * - the observability metric batch: `qs_serviceHeapUsed`, `qs_serviceHeapTotal`,
 *   `qs_serviceExternalMem`, `qs_serviceProcessMem` (bytes) and `qs_serviceUptimeMillisec`, each
 *   group when its switch is on, with the static attributes and `serviceVersion`.
 */

import type { ObservabilityMetricBatch } from "../ports.ts";
import { floatField, type Point } from "../shared/line-protocol.ts";

/** The process's memory, in bytes (process.memoryUsage()). */
export interface MemorySample {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly rss: number;
}

export const MEMORY_MEASUREMENT = "steward_memory_usage";

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

/** `<M> months, <D> days, <H> hours, <m> minutes, <s> seconds` (30-day months). */
export function formatUptime(uptimeMs: number): string {
  let rest = Math.max(0, Math.floor(uptimeMs / 1000));
  const seconds = rest % 60;
  rest = Math.floor(rest / 60);
  const minutes = rest % 60;
  rest = Math.floor(rest / 60);
  const hours = rest % 24;
  rest = Math.floor(rest / 24);
  const days = rest % 30;
  const months = Math.floor(rest / 30);
  return `${months} months, ${days} days, ${hours} hours, ${minutes} minutes, ${seconds} seconds`;
}

export function uptimeLogLine(iteration: number, uptimeMs: number, memory: MemorySample): string {
  return (
    `Iteration # ${iteration.toLocaleString("en-US")}, Uptime: ${formatUptime(uptimeMs)}, ` +
    `Heap used ${mb(memory.heapUsed)} MB of total heap ${mb(memory.heapTotal)} MB. ` +
    `External (off-heap): ${mb(memory.external)} MB. Memory allocated to process: ${mb(memory.rss)} MB.`
  );
}

export function memoryPoint(memory: MemorySample, instance: string, version: string, atMs: number): Point {
  return {
    measurement: MEMORY_MEASUREMENT,
    tags: { instance, version },
    fields: {
      heap_used: floatField(mb(memory.heapUsed)),
      heap_total: floatField(mb(memory.heapTotal)),
      external: floatField(mb(memory.external)),
      process_memory: floatField(mb(memory.rss)),
    },
    timestampMs: atMs,
  };
}

export interface UptimeMetricOptions {
  /** `storeObsPlatform.metric.dynamic.serviceMemoryUsage.enable`. */
  memory: boolean;
  /** `storeObsPlatform.metric.dynamic.serviceUptime.enable`. */
  uptime: boolean;
  /** Static attributes, plus `serviceVersion` when its switch is on. */
  attributes: Readonly<Record<string, string>>;
  /** The schedule's interval, sent as `interval.ms`. */
  intervalMs: number;
}

/** The batch for the observability platform, or undefined when both metric groups are off. */
export function uptimeMetricBatch(
  memory: MemorySample,
  uptimeMs: number,
  atMs: number,
  options: UptimeMetricOptions,
): ObservabilityMetricBatch | undefined {
  const metrics = [
    ...(options.memory
      ? [
          { name: "qs_serviceHeapUsed", value: memory.heapUsed },
          { name: "qs_serviceHeapTotal", value: memory.heapTotal },
          { name: "qs_serviceExternalMem", value: memory.external },
          { name: "qs_serviceProcessMem", value: memory.rss },
        ]
      : []),
    ...(options.uptime ? [{ name: "qs_serviceUptimeMillisec", value: uptimeMs }] : []),
  ];
  if (metrics.length === 0) return undefined;
  return { timestamp: atMs, intervalMs: options.intervalMs, attributes: options.attributes, metrics };
}
