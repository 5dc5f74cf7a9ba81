/**
 * The REST API as the local process starts it: its stores, scheduler and clients
 * (rest-services.ts), then its listener, which stops first. A store file that cannot be opened
 * is on the status page (`stores`) and fails the container health check.
 */
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import type { StoreAvailability } from "../../core/adapters/local/opened-or-refused.ts";
import { swaggerUiAssets } from "../../core/adapters/swagger-ui-assets.ts";
import type { Config } from "../../core/config/index.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import type { Logger } from "../../core/ports.ts";
import { nodeClientIp } from "../../functions/http/node-client-ip.ts";
import { createApp as createRestApp } from "../../functions/rest/app.ts";
import type { ListenerProbe } from "../agent/listener-probes.ts";
import { startHttpListener } from "../http/http-listener.ts";
import type { PartStarter } from "../start-in-order.ts";
import { listening, trackPart } from "../status/tracked-part.ts";
import { type RestServicesDeps, startRestServices } from "./rest-services.ts";

export interface RestApiDeps extends RestServicesDeps {
  /** Counts the REST API's requests refused by its rate limit (rate-limited-metric.ts). */
  countRateLimited: (() => void) | undefined;
  status: StatusBoard;
  parts: PartStarter;
}

export interface RestApi {
  /** The container health check's probe of the store files. */
  healthProbes: ListenerProbe[];
}

export async function startRestApi(config: Config, logger: Logger, deps: RestApiDeps): Promise<RestApi> {
  const rest = config.restServer;
  if (!rest.enable) return { healthProbes: [] };
  const { status, parts, clock, countRateLimited } = deps;
  const backing = await parts.start("rest-services", async () => {
    const started = await startRestServices(config, logger, deps);
    for (const [name, availability] of Object.entries(started.storeAvailability))
      status.set("stores", name, availability);
    return started;
  });
  const listener = {
    name: "rest-api",
    start: () =>
      startHttpListener({
        name: "REST API",
        app: createRestApp({
          config: rest,
          logger: logger.child("rest"),
          clock,
          rateLimitStore: createMemoryRateLimitStore(),
          clientIp: nodeClientIp,
          services: backing.services,
          explorerAssets: swaggerUiAssets(),
          ...(countRateLimited === undefined ? {} : { countRateLimited }),
        }),
        host: rest.host,
        port: rest.port,
        logger,
      }),
  };
  await parts.add(trackPart(listener, listening(status, "REST API")));
  return { healthProbes: [storesProbe(backing.storeAvailability)] };
}

function storesProbe(storeAvailability: Record<string, () => StoreAvailability>): ListenerProbe {
  return {
    name: "restStores",
    check: async () => {
      const unavailable = Object.entries(storeAvailability)
        .map(([name, availability]) => ({ name, ...availability() }))
        .filter((store) => store.state === "unavailable");
      if (unavailable.length === 0) return undefined;
      return unavailable
        .map((store) => `${store.name} store (${store.file}) refuses calls: ${store.reason}`)
        .join("; ");
    },
  };
}
