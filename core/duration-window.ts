/**
 * The last `capacity` durations (ms) in a preallocated ring, and the statistics the UDP and audit
 * event queues report over them (average, p95 = the value at index ceil(0.95·n) − 1 of the sorted
 * samples and maximum, as Butler SOS computes them; p99 for the benchmark's time in queue).
 *
 * Recording is O(1) without allocation (it runs once or twice per datagram or event). Samples
 * carry a sequence number, so a reader asks for the samples recorded after a mark — "since the
 * last successful write" — instead of clearing the ring under the other readers.
 */

export interface DurationStats {
  /** Samples the statistics are over (at most the ring's capacity). */
  count: number;
  avgMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface DurationReader {
  /** A mark for "everything recorded so far"; pass it to `stats` to see only later samples. */
  mark(): number;
  /** Statistics of the samples recorded after `sinceMark` that are still in the ring; 0s when none. */
  stats(sinceMark?: number): DurationStats;
}

export interface DurationWindow extends DurationReader {
  record(ms: number): void;
}

export const DEFAULT_DURATION_SAMPLES = 1000;

export function createDurationWindow(capacity = DEFAULT_DURATION_SAMPLES): DurationWindow {
  const ring = new Float64Array(capacity);
  // Total samples ever recorded; sample number i lives at ring[i % capacity].
  let recorded = 0;

  return {
    record(ms) {
      ring[recorded % capacity] = ms;
      recorded += 1;
    },
    mark: () => recorded,
    stats(sinceMark = 0) {
      const first = Math.max(sinceMark, recorded - capacity);
      const n = recorded - first;
      if (n <= 0) return { count: 0, avgMs: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 };
      const samples = new Float64Array(n);
      let sum = 0;
      for (let i = 0; i < n; i += 1) {
        const ms = ring[(first + i) % capacity] ?? 0;
        samples[i] = ms;
        sum += ms;
      }
      samples.sort();
      const at = (q: number) => samples[Math.ceil(q * n) - 1] ?? 0;
      return { count: n, avgMs: sum / n, p95Ms: at(0.95), p99Ms: at(0.99), maxMs: samples[n - 1] ?? 0 };
    },
  };
}
