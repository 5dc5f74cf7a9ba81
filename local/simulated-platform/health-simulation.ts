/**
 * The values one simulated engine reports on `GET /engine/healthcheck`: memory
 * and CPU walk randomly within plausible bounds, session and user counts drift, the app lists
 * hold catalogue ids and a few `SessionApp_` ids that come and go, the call, selection and cache
 * counters only grow, `saturated` is rarely true, `started` and `version` stay fixed. Each call
 * moves one step; the arithmetic is a few dozen operations, so 200 servers polled every 5 s cost
 * nothing noticeable.
 */
import { randomUUID } from "node:crypto";
import { formatCompactTimestamp } from "./compact-timestamp.ts";

export interface HealthSimulationOptions {
  /** Uniform in [0, 1). */
  readonly random: () => number;
  /** When the simulated engine started (epoch ms). */
  readonly startedAt: number;
  readonly version?: string;
}

/** The next health check answer, given the app ids the repository currently knows. */
export type HealthSimulation = (appIds: readonly string[]) => Record<string, unknown>;

const TOTAL_PHYSICAL_MB = 32_768;

export function createHealthSimulation(options: HealthSimulationOptions): HealthSimulation {
  const { random } = options;
  const started = formatCompactTimestamp(options.startedAt);
  const version = options.version ?? "12.1657.0";
  const walk = (value: number, step: number, min: number, max: number) =>
    Math.min(max, Math.max(min, value + (random() * 2 - 1) * step));
  const grow = (max: number) => Math.floor(random() * max);

  let committed = 2000 + random() * 4000;
  let cpu = random() * 30;
  let sessions = grow(20);
  let users = Math.min(sessions, grow(15));
  let calls = grow(10_000);
  let selections = grow(2_000);
  const cache = { hits: 0, lookups: 0, added: 0, replaced: 0, bytes_added: 0 };
  let sessionApps: string[] = [];

  return (appIds) => {
    committed = walk(committed, 150, 800, TOTAL_PHYSICAL_MB * 0.8);
    const allocated = committed * (0.85 + random() * 0.1);
    cpu = walk(cpu, 8, 0, 100);
    sessions = Math.round(walk(sessions, 3, 0, 200));
    users = Math.min(sessions, Math.round(walk(users, 2, 0, 150)));
    calls += grow(500);
    selections += grow(100);
    const lookups = grow(400);
    const hits = Math.floor(lookups * (0.5 + random() * 0.4));
    const added = lookups - hits;
    cache.lookups += lookups;
    cache.hits += hits;
    cache.added += added;
    cache.replaced += Math.floor(added * random() * 0.3);
    cache.bytes_added += added * (1024 + grow(64 * 1024));
    if (sessionApps.length === 0 || random() < 0.2) {
      sessionApps = Array.from({ length: 1 + grow(3) }, () => `SessionApp_${randomUUID()}`);
    }
    const loaded = [...appIds.filter(() => random() < 0.8), ...sessionApps];
    const active = loaded.filter(() => random() < 0.6);
    return {
      started,
      version,
      mem: {
        committed: round(committed),
        allocated: round(allocated),
        free: round(TOTAL_PHYSICAL_MB - committed),
        totalPhysical: TOTAL_PHYSICAL_MB,
      },
      apps: {
        active_docs: active,
        in_memory_docs: [...appIds, ...sessionApps],
        loaded_docs: loaded,
        calls,
        selections,
      },
      cpu: { total: round(cpu) },
      session: { active: Math.min(sessions, Math.round(sessions * 0.7)), total: sessions },
      users: { active: Math.min(users, Math.round(users * 0.8)), total: users },
      cache: { ...cache },
      saturated: random() < 0.02,
    };
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
