import { createMemoryAppNameCache } from "../../core/adapters/local/memory-app-name-cache.ts";
import { describeAppNameCacheContract } from "./app-name-cache.contract.ts";

describeAppNameCacheContract("in memory", async () => {
  const cache = createMemoryAppNameCache();
  return { cache, fill: async (apps) => cache.replace(apps) };
});
