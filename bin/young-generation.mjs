// Caps V8's young generation at 16 MB (two semi-spaces of 8 MB) in a process already running,
// as `node --max-semi-space-size=8` would from the command line: bin/steward.js runs Steward in
// its own process, so no node option can be given to it, and V8 reads the maximum semi-space size
// only when the heap is set up. The growth factor, though, is read each time the young generation
// grows: it stays 2 (V8's default) below the cap and becomes 1 (no growth) at the cap, checked
// after every collection. By default the young generation grows to 32 MB (16 MB semi-spaces) in
// the agent's first poll round and stays there.
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** The size of the young generation (both semi-spaces) at which it stops growing, bytes. */
export const YOUNG_GENERATION_CAP = 16 * 1024 * 1024;

function youngGenerationSize() {
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === "new_space") return space.space_size;
  }
  return 0;
}

export function capYoungGeneration(cap = YOUNG_GENERATION_CAP) {
  let growing = true;
  const check = () => {
    const grow = youngGenerationSize() < cap;
    if (grow === growing) return;
    growing = grow;
    setFlagsFromString(`--semi-space-growth-factor=${grow ? 2 : 1}`);
  };
  check();
  new PerformanceObserver(check).observe({ entryTypes: ["gc"] });
}
