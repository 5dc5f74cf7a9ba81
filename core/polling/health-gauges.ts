/**
 * The scrape endpoint's engine-health gauges (Butler SOS's, named `steward_` where it said
 * `butlersos_`), one series per server labelled with its server tags (scrape-labels.ts), valued
 * from that server's latest health check, read only when the endpoint is scraped (nothing is done
 * per poll): `steward_apps_calls`, `steward_apps_selections`, `steward_apps_activedocs_total`,
 * `steward_apps_inmemorydocs_total`, `steward_apps_loadeddocs_total` (counts), `steward_cache_*`
 * (`added`, `bytes_added`, `hits`, `lookups`, `replaced`, and `saturated` as 1 / 0),
 * `steward_cpu_total`, `steward_mem_committed`, `steward_mem_allocated`, `steward_mem_free` (in
 * bytes, and the help says so — Butler SOS's said MB), `steward_session_active`,
 * `steward_session_total`, `steward_users_active`, `steward_users_total`, and
 * `steward_engine_metadata` = 1 with the extra labels `engine_started` and `engine_version`. A
 * server not polled successfully yet has no series. With `onChange` (the poller's round end) the
 * registry may render the gauges once per change instead of at every scrape.
 */
import type { EngineHealth, MetricsRegistry } from "../ports.ts";
import { mbToBytes } from "./health-obs-metrics.ts";
import { pickLabels } from "./scrape-labels.ts";
import type { ServerTags } from "./server-tags.ts";

/** A server's latest health check and its server tags. */
export interface HealthReading {
  readonly tags: ServerTags;
  readonly health: EngineHealth;
}

interface HealthGauge {
  readonly name: string;
  readonly help: string;
  readonly value: (health: EngineHealth) => number;
}

const GAUGES: readonly HealthGauge[] = [
  { name: "steward_apps_calls", help: "Engine calls (health check apps.calls)", value: (h) => h.apps.calls },
  {
    name: "steward_apps_selections",
    help: "Engine selections (health check apps.selections)",
    value: (h) => h.apps.selections,
  },
  {
    name: "steward_apps_activedocs_total",
    help: "Apps active in the engine",
    value: (h) => h.apps.active_docs.length,
  },
  {
    name: "steward_apps_inmemorydocs_total",
    help: "Apps in the engine's memory",
    value: (h) => h.apps.in_memory_docs.length,
  },
  {
    name: "steward_apps_loadeddocs_total",
    help: "Apps loaded in the engine",
    value: (h) => h.apps.loaded_docs.length,
  },
  { name: "steward_cache_added", help: "Objects added to the engine cache", value: (h) => h.cache.added },
  {
    name: "steward_cache_bytes_added",
    help: "Bytes added to the engine cache",
    value: (h) => h.cache.bytes_added,
  },
  { name: "steward_cache_hits", help: "Engine cache hits", value: (h) => h.cache.hits },
  { name: "steward_cache_lookups", help: "Engine cache lookups", value: (h) => h.cache.lookups },
  {
    name: "steward_cache_replaced",
    help: "Objects replaced in the engine cache",
    value: (h) => h.cache.replaced,
  },
  {
    name: "steward_cache_saturated",
    help: "1 when the engine reports itself saturated, else 0",
    value: (h) => (h.saturated ? 1 : 0),
  },
  { name: "steward_cpu_total", help: "Engine CPU use in percent (30 s average)", value: (h) => h.cpu.total },
  {
    name: "steward_mem_committed",
    help: "Engine memory committed, in bytes",
    value: (h) => mbToBytes(h.mem.committed),
  },
  {
    name: "steward_mem_allocated",
    help: "Engine memory allocated, in bytes",
    value: (h) => mbToBytes(h.mem.allocated),
  },
  { name: "steward_mem_free", help: "Engine memory free, in bytes", value: (h) => mbToBytes(h.mem.free) },
  { name: "steward_session_active", help: "Active engine sessions", value: (h) => h.session.active },
  { name: "steward_session_total", help: "Engine sessions", value: (h) => h.session.total },
  { name: "steward_users_active", help: "Active engine users", value: (h) => h.users.active },
  { name: "steward_users_total", help: "Engine users", value: (h) => h.users.total },
];

/**
 * Declares the gauges. `latest` gives each server's latest reading (called when the gauges are
 * rendered, once per gauge); `labelNames`: scrape-labels.ts `serverLabelNames`; `onChange`, when
 * given, subscribes to the moments `latest` changes (MetricSpec `onChange`).
 */
export function declareHealthGauges(
  registry: MetricsRegistry,
  latest: () => Iterable<HealthReading>,
  labelNames: readonly string[],
  onChange?: (listener: () => void) => void,
): void {
  const changes = onChange === undefined ? {} : { onChange };
  for (const gauge of GAUGES) {
    registry.gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames,
      ...changes,
      collect: () =>
        Array.from(latest(), ({ tags, health }) => ({
          labels: pickLabels(tags, labelNames),
          value: gauge.value(health),
        })),
    });
  }
  const metadataLabels = [...new Set([...labelNames, "engine_started", "engine_version"])];
  registry.gauge({
    name: "steward_engine_metadata",
    help: "Always 1; the engine's start time and version are its labels",
    labelNames: metadataLabels,
    ...changes,
    collect: () =>
      Array.from(latest(), ({ tags, health }) => ({
        labels: {
          ...pickLabels(tags, labelNames),
          engine_started: health.started,
          engine_version: health.version,
        },
        value: 1,
      })),
  });
}
