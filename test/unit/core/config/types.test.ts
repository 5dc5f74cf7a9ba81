import { describe, expectTypeOf, it } from "vitest";
import type {
  AuditDestinationType,
  AuditEventsConfig,
  Config,
  EndpointKey,
  RestServerConfig,
  TimeseriesdbConfig,
} from "../../../../core/config/index.ts";

describe("exported config types", () => {
  it("are precise slices of Config without optional or index-signature members", () => {
    expectTypeOf<AuditEventsConfig>().toEqualTypeOf<Config["auditEvents"]>();
    expectTypeOf<AuditEventsConfig["port"]>().toEqualTypeOf<number>();
    expectTypeOf<AuditEventsConfig["destination"]["type"]>().toEqualTypeOf<AuditDestinationType[]>();
    expectTypeOf<AuditEventsConfig["queue"]["queueMetrics"]["timeseriesdb"]["tags"]>().toEqualTypeOf<
      { name: string; value: string }[]
    >();
    expectTypeOf<RestServerConfig["endpointsEnable"]>().toEqualTypeOf<Record<EndpointKey, boolean>>();
    expectTypeOf<TimeseriesdbConfig["version"]>().toEqualTypeOf<1 | 2 | 3>();
    expectTypeOf<TimeseriesdbConfig["v3Config"]["token"]>().toEqualTypeOf<string>();
    expectTypeOf<Config["logLevel"]>().toEqualTypeOf<
      "error" | "warn" | "info" | "verbose" | "debug" | "silly"
    >();
    expectTypeOf<Config["cert"]["clientCertPassphrase"]>().toEqualTypeOf<string>();
    expectTypeOf<
      Config["thirdPartyToolsCredentials"]["obsPlatform"][number]["accountId"]
    >().toEqualTypeOf<string>();
    expectTypeOf<keyof Config["keyValueStore"]>().toEqualTypeOf<
      "enable" | "maxKeysPerNamespace" | "maxNamespaces" | "maxTotalBytes" | "storeFile"
    >();
  });
});
