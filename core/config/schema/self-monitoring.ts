/** The agent's own services: config UI, heartbeat, container health check, uptime, scrape endpoint, broker. */
import * as v from "valibot";
import { logLevelSchema } from "./logging.ts";
import {
  bool,
  host,
  list,
  nameValueList,
  nonEmptyStr,
  port,
  requiredHttpUrl,
  requiredStr,
  section,
} from "./primitives.ts";

export const configVisualisationSchema = section({
  enable: bool(false),
  host: host("localhost"),
  port: port(3100),
  obfuscate: bool(true),
});

export const heartbeatSchema = section({
  enable: bool(false),
  remoteURL: requiredHttpUrl(),
  frequency: nonEmptyStr("every 1 hour"),
});

export const containerHealthCheckSchema = section({ enable: bool(false), port: port(12398) });

// Off by default: the uptime monitor is specified (spec document 3) but not run by this version.
export const uptimeMonitorSchema = section({
  enable: bool(false),
  frequency: nonEmptyStr("every 15 minutes"),
  logLevel: v.optional(logLevelSchema, "verbose"),
  storeInTimeseriesdb: section({ serviceMemoryUsage: bool(true), instanceTag: nonEmptyStr("DEV") }),
  storeObsPlatform: section({
    enable: bool(false),
    destinationAccount: list(requiredStr),
    metric: section({
      dynamic: section({
        serviceMemoryUsage: section({ enable: bool(true) }),
        serviceUptime: section({ enable: bool(true) }),
      }),
    }),
    attribute: section({
      static: nameValueList(),
      dynamic: section({ serviceVersion: section({ enable: bool(true) }) }),
    }),
  }),
});

export const scrapeEndpointSchema = section({
  enable: bool(false),
  host: host("127.0.0.1"),
  port: port(9842),
});

export const mqttConfigSchema = section({
  enable: bool(false),
  brokerHost: host("localhost"),
  brokerPort: port(1883),
  baseTopic: nonEmptyStr("steward/"),
});
