/**
 * InfluxDB 1.x (influxd.ts) for the tests of one file: started before them and closed after,
 * unless influxd is not installed, in which case `skip` is true (outside CI) and nothing starts.
 * Kept apart from influxd.ts, which the benchmarks (plain node, no test runner) use too.
 */
import { type Influxd, type InfluxdHttps, skipWithoutInfluxd, startInfluxd } from "./influxd.ts";
import { resourceForSuite } from "./suite-resource.ts";

/**
 * Call it at the top of a test file; use `skip` with `describe.skipIf`. `env`: InfluxDB settings
 * of this server, e.g. `{ INFLUXDB_DATA_MAX_VALUES_PER_TAG: "20" }`; `https`: its certificate,
 * made when the suite starts (it serves HTTPS only).
 */
export function influxdForSuite(
  options: { env?: NodeJS.ProcessEnv; https?: () => Promise<InfluxdHttps> } = {},
): {
  skip: boolean;
  influxd: Influxd;
} {
  const skip = skipWithoutInfluxd();
  const influxd = resourceForSuite(
    "InfluxDB server",
    async () => {
      const https = await options.https?.();
      return startInfluxd({
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(https === undefined ? {} : { https }),
      });
    },
    (server) => server.close(),
    {
      skip,
    },
  );
  return { skip, influxd };
}
