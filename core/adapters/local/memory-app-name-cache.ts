/**
 * The app-name cache held in memory: read by UDP event enrichment on every event, replaced as a
 * whole by the app-name poller after a complete fetch (never patched from a partial one). Empty
 * until the first fetch: enrichment then answers its "unknown app name" placeholder.
 */
import type { AppNameCache } from "../../ports.ts";

export interface MemoryAppNameCache extends AppNameCache {
  /** Replaces every entry; ids are stored lower-case. */
  replace(apps: Iterable<{ id: string; name: string }>): void;
  readonly size: number;
}

export function createMemoryAppNameCache(): MemoryAppNameCache {
  let names = new Map<string, string>();
  return {
    nameOf: (appId) => names.get(appId),
    replace(apps) {
      const next = new Map<string, string>();
      for (const app of apps) next.set(app.id.toLowerCase(), app.name);
      names = next;
    },
    get size() {
      return names.size;
    },
  };
}
