/**
 * Where a benchmark child's memory is: sampled every 100 ms (process.memoryUsage and V8's heap
 * spaces), keeping the sample with the highest RSS, so the peak can be split into the V8 heap
 * (by space, as committed), memory outside it that V8 knows of (array buffers, Node's buffers)
 * and the rest (Node's and V8's own code and data, the allocator's free memory). With `logPath`
 * every sample is also appended there as one JSON line, with `extra()`'s fields.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";

export interface MemorySample {
  rssMb: number;
  /** V8 heap committed, by space: new (young generation), old, large objects, code. */
  heapMb: { total: number; new: number; old: number; largeObjects: number; code: number; used: number };
  /** Outside the V8 heap but known to it: array buffers (Node's Buffers, datagrams) and the like. */
  externalMb: number;
  arrayBuffersMb: number;
  /** RSS not in the heap nor external: Node, V8, code, the allocator's free memory. */
  restMb: number;
  /** RSS in file mappings (Node's binary and libraries) and in anonymous memory. */
  fileMb: number;
  anonMb: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function statusKb(status: string, key: string): number {
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
}

export function sampleMemory(): MemorySample {
  const usage = process.memoryUsage();
  const status = readFileSync("/proc/self/status", "utf8");
  const spaces = new Map(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]));
  const space = (...names: string[]) => mb(names.reduce((sum, name) => sum + (spaces.get(name) ?? 0), 0));
  return {
    rssMb: mb(usage.rss),
    heapMb: {
      total: mb(usage.heapTotal),
      new: space("new_space", "new_large_object_space"),
      old: space("old_space"),
      largeObjects: space("large_object_space", "code_large_object_space"),
      code: space("code_space"),
      used: mb(usage.heapUsed),
    },
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
    restMb: mb(usage.rss - usage.heapTotal - usage.external),
    fileMb: mb(statusKb(status, "RssFile") * 1024),
    anonMb: mb(statusKb(status, "RssAnon") * 1024),
  };
}

export function startMemorySampler(options: { logPath?: string | undefined; extra?: () => object } = {}) {
  let peak = sampleMemory();
  const started = Date.now();
  const timer = setInterval(() => {
    const sample = sampleMemory();
    if (sample.rssMb > peak.rssMb) peak = sample;
    if (options.logPath !== undefined) {
      const line = { ms: Date.now() - started, ...sample, ...options.extra?.() };
      appendFileSync(options.logPath, `${JSON.stringify(line)}\n`);
    }
  }, 100);
  timer.unref();
  return { peak: () => peak };
}

/** One line for the report: the peak sample split by where the memory is. */
export function describePeak(sample: MemorySample): string {
  const { heapMb } = sample;
  return (
    `at the highest sample RSS ${sample.rssMb} MB = V8 heap ${heapMb.total} MB committed ` +
    `(${heapMb.used} MB in use; new space ${heapMb.new}, old ${heapMb.old}, large objects ${heapMb.largeObjects}, code ${heapMb.code}) ` +
    `+ external ${sample.externalMb} MB (array buffers ${sample.arrayBuffersMb}) + rest ${sample.restMb} MB; by mapping: files ${sample.fileMb} MB, anonymous ${sample.anonMb} MB`
  );
}
