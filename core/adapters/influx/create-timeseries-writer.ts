/**
 * Chooses the InfluxDB adapter once, from `timeseriesdbConfig.version` (as Hono's getProcessor
 * picks one processor per event version); nothing else looks at the version.
 */
import type { TimeseriesdbConfig } from "../../config/index.ts";
import type { TimeseriesWriter } from "../../ports.ts";
import { createInfluxV1Writer } from "./influx-v1-writer.ts";
import { createInfluxV2Writer } from "./influx-v2-writer.ts";
import { createInfluxV3Writer } from "./influx-v3-writer.ts";

const WRITERS: Record<TimeseriesdbConfig["version"], (config: TimeseriesdbConfig) => TimeseriesWriter> = {
  1: createInfluxV1Writer,
  2: createInfluxV2Writer,
  3: createInfluxV3Writer,
};

export function createTimeseriesWriter(config: TimeseriesdbConfig): TimeseriesWriter {
  return WRITERS[config.version](config);
}
