/**
 * Chooses the InfluxDB adapter once, from `timeseriesdbConfig.version` (as Hono's getProcessor
 * picks one processor per event version); nothing else looks at the version. The connection
 * (http or HTTPS with its CA, influx-http.ts) is made here, so a CA file that cannot be read
 * fails the start, naming the setting and the file.
 */
import type { TimeseriesdbConfig } from "../../config/index.ts";
import type { TimeseriesClient } from "../../ports.ts";
import { type InfluxConnection, influxConnection } from "./influx-http.ts";
import { createInfluxV1Client } from "./influx-v1-client.ts";
import { createInfluxV2Client } from "./influx-v2-client.ts";
import { createInfluxV3Client } from "./influx-v3-client.ts";

const WRITERS: Record<
  TimeseriesdbConfig["version"],
  (config: TimeseriesdbConfig, connection: InfluxConnection) => TimeseriesClient
> = {
  1: createInfluxV1Client,
  2: createInfluxV2Client,
  3: createInfluxV3Client,
};

/** `cwd`: where a relative `tls.caFile` resolves from (the process's working directory by default). */
export function createTimeseriesClient(
  config: TimeseriesdbConfig,
  options: { cwd?: string } = {},
): TimeseriesClient {
  return WRITERS[config.version](config, influxConnection(config, options.cwd));
}
