/**
 * Chooses the InfluxDB adapter once, from `timeseriesdbConfig.version` (as Hono's getProcessor
 * picks one processor per event version); nothing else looks at the version.
 */
import type { TimeseriesdbConfig } from "../../config/index.ts";
import type { TimeseriesClient } from "../../ports.ts";
import { createInfluxV1Client } from "./influx-v1-client.ts";
import { createInfluxV2Client } from "./influx-v2-client.ts";
import { createInfluxV3Client } from "./influx-v3-client.ts";

const WRITERS: Record<TimeseriesdbConfig["version"], (config: TimeseriesdbConfig) => TimeseriesClient> = {
  1: createInfluxV1Client,
  2: createInfluxV2Client,
  3: createInfluxV3Client,
};

export function createTimeseriesClient(config: TimeseriesdbConfig): TimeseriesClient {
  return WRITERS[config.version](config);
}
