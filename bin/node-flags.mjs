/**
 * The node options Steward runs with. `npm start` (package.json), the `steward` command's first
 * line (bin/steward.js) and the container's entry point (Dockerfile) start node with exactly
 * these (a test checks that the three agree with this list), the executables of `npm run package`
 * carry them (bin/package/single-executable.ts), and the benchmarks start Steward with them too.
 *
 * - `--max-semi-space-size=8`: V8's young generation at most 16 MB instead of 32 MB. Steward
 *   allocates steadily (every poll round, every request), so V8 grows the young generation to its
 *   maximum within seconds and never gives it back.
 * - `--max-old-space-size=1024`: a 1 GiB limit for the old generation (Node's default is a
 *   quarter of the machine's memory, at most 4 GiB), far above what Steward needs, whose queues
 *   and buffers are all bounded. With the default limit V8 lets the old generation grow to up to
 *   4× what was live after the last full collection before it collects again; at 1 GiB, to about
 *   1.6×. Without this, the smaller young generation only moved memory into the old one: more
 *   short-lived objects are promoted, and the old generation grew by as much as the young one
 *   shrank (polling benchmark: 164–179 MB peak with the young-generation cap alone).
 *
 * Measured on 2026-11-24 (docs/performance.md): platform polling of 200 servers peaks at
 * 135–142 MB instead of 149–162 MB; the ingest process under load at 81–85 MB instead of
 * 98–101 MB; throughput and CPU per event within the run-to-run noise of the shared machine.
 * To run with other limits, start node with your own options: `node --max-old-space-size=2048
 * bin/steward.js start` (the options on the command line are the only ones node then takes).
 */
export const NODE_FLAGS = ["--max-semi-space-size=8", "--max-old-space-size=1024"];
