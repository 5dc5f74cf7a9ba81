/**
 * InfluxDB 1.x (influxd.ts) for the tests of one file: started before them and closed after,
 * unless influxd is not installed, in which case `skip` is true (outside CI) and nothing starts.
 * Kept apart from influxd.ts, which the benchmarks (plain node, no test runner) use too.
 */
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "./influxd.ts";
import { resourceForSuite } from "./suite-resource.ts";

/**
 * Call it at the top of a test file; use `skip` with `describe.skipIf`. `env`: InfluxDB settings
 * of this server, e.g. `{ INFLUXDB_DATA_MAX_VALUES_PER_TAG: "20" }`.
 */
export function influxdForSuite(options: { env?: NodeJS.ProcessEnv } = {}): {
  skip: boolean;
  influxd: Influxd;
} {
  const skip = skipWithoutInfluxd();
  const influxd = resourceForSuite(
    "InfluxDB server",
    () => startInfluxd(options),
    (server) => server.close(),
    {
      skip,
    },
  );
  return { skip, influxd };
}
