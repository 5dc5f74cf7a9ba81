/**
 * Engine health as one observability-platform metric batch (metric API): the attributes of
 * metric-attributes.ts, `interval.ms` the health polling interval, and the gauges of each group
 * whose `obsPlatform.metric.dynamic.*.enable` flag is on, with the platform's exact names
 * (misspellings included: `qs_memCommited`, `qs_cacheaAdded` — part of the data contract:
 * dashboards query these names):
 * - engine.memory: `qs_memCommited`, `qs_memAllocated`, `qs_memFree`, in bytes (MB × 1,048,576);
 * - engine.cpu: `qs_cpuTotal`; engine.calls: `qs_engineCalls`; engine.selections:
 *   `qs_engineSelections`; engine.sessions: `qs_engineSessionsActive`, `qs_engineSessionsTotal`;
 *   engine.users: `qs_engineUsersActive`, `qs_engineUsersTotal`;
 * - engine.saturated: `qs_engineSaturated` as 1 / 0 (Butler SOS sent the raw boolean; the
 *   metric API takes numbers for gauges);
 * - apps.docCount: `qs_docsActiveCount`, `qs_docsLoadedCount`, `qs_docsInMemoryCount`;
 * - cache.cache: `qs_cacheHits`, `qs_cacheLookups`, `qs_cacheaAdded`, `qs_cacheReplaced`,
 *   `qs_cacheBytesAdded`.
 * (`apps.activeDocs/loadedDocs/inMemoryDocs` select nothing, as in Butler SOS.) With every group
 * off there is no batch to post (undefined). The groups are chosen once, when the mapper is made.
 */
import type { ObsPlatformConfig } from "../config/index.ts";
import type { EngineHealth, ObservabilityMetricBatch } from "../ports.ts";
import { createMetricAttributes } from "./metric-attributes.ts";
import type { ServerTags } from "./server-tags.ts";

export const BYTES_PER_MB = 1_048_576;

/** Engine memory (MB, a float) as whole bytes. */
export const mbToBytes = (mb: number): number => Math.round(mb * BYTES_PER_MB);

export interface HealthObsMetricOptions {
  readonly metric: ObsPlatformConfig["metric"];
  /** The Steward version, for the `serviceVersion` attribute. */
  readonly serviceVersion: string;
  /** `serversToMonitor.pollingInterval`. */
  readonly intervalMs: number;
}

/** The batch of one server's health check read at `timestampMs`; undefined when every group is off. */
export type HealthObsMetricMapper = (
  health: EngineHealth,
  tags: ServerTags,
  timestampMs: number,
) => ObservabilityMetricBatch | undefined;

type Gauge = readonly [name: string, value: (health: EngineHealth) => number];

export function createHealthObsMetricMapper(options: HealthObsMetricOptions): HealthObsMetricMapper {
  const { engine, apps, cache } = options.metric.dynamic;
  const groups: readonly (readonly [boolean, readonly Gauge[]])[] = [
    [
      engine.memory.enable,
      [
        ["qs_memCommited", (h) => mbToBytes(h.mem.committed)],
        ["qs_memAllocated", (h) => mbToBytes(h.mem.allocated)],
        ["qs_memFree", (h) => mbToBytes(h.mem.free)],
      ],
    ],
    [engine.cpu.enable, [["qs_cpuTotal", (h) => h.cpu.total]]],
    [engine.calls.enable, [["qs_engineCalls", (h) => h.apps.calls]]],
    [engine.selections.enable, [["qs_engineSelections", (h) => h.apps.selections]]],
    [
      engine.sessions.enable,
      [
        ["qs_engineSessionsActive", (h) => h.session.active],
        ["qs_engineSessionsTotal", (h) => h.session.total],
      ],
    ],
    [
      engine.users.enable,
      [
        ["qs_engineUsersActive", (h) => h.users.active],
        ["qs_engineUsersTotal", (h) => h.users.total],
      ],
    ],
    [engine.saturated.enable, [["qs_engineSaturated", (h) => (h.saturated ? 1 : 0)]]],
    [
      apps.docCount.enable,
      [
        ["qs_docsActiveCount", (h) => h.apps.active_docs.length],
        ["qs_docsLoadedCount", (h) => h.apps.loaded_docs.length],
        ["qs_docsInMemoryCount", (h) => h.apps.in_memory_docs.length],
      ],
    ],
    [
      cache.cache.enable,
      [
        ["qs_cacheHits", (h) => h.cache.hits],
        ["qs_cacheLookups", (h) => h.cache.lookups],
        ["qs_cacheaAdded", (h) => h.cache.added],
        ["qs_cacheReplaced", (h) => h.cache.replaced],
        ["qs_cacheBytesAdded", (h) => h.cache.bytes_added],
      ],
    ],
  ];
  const gauges = groups.filter(([enabled]) => enabled).flatMap(([, group]) => group);
  const attributes = createMetricAttributes(options.metric.attribute, options.serviceVersion);
  const { intervalMs } = options;

  return function toHealthMetricBatch(health, tags, timestampMs) {
    if (gauges.length === 0) return undefined;
    return {
      timestamp: timestampMs,
      intervalMs,
      attributes: attributes(tags),
      metrics: gauges.map(([name, value]) => ({ name, value: value(health) })),
    };
  };
}
