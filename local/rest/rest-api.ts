/**
 * The REST API as the local process starts it: its stores, scheduler and clients
 * (rest-services.ts), then its listener, which stops first. A store file that cannot be opened
 * is on the status page (`stores`) and fails the container health check. The listener stops
 * taking requests at the shutdown's signal (listener-at-signal.ts).
 */
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import type { StoreAvailability } from "../../core/adapters/local/opened-or-refused.ts";
import { swaggerUiAssets } from "../../core/adapters/swagger-ui-assets.ts";
import { type Config, openListenerWarning } from "../../core/config/index.ts";
import type { HttpRefusalReason } from "../../core/monitoring/http-refused-metric.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import type { Logger } from "../../core/ports.ts";
import { nodeClientIpBehind } from "../../functions/http/node-client-ip.ts";
import { createApp as createRestApp } from "../../functions/rest/app.ts";
import type { ListenerProbe } from "../agent/listener-probes.ts";
import { startHttpListener } from "../http/http-listener.ts";
import { stopsAcceptingAtSignal } from "../http/listener-at-signal.ts";
import { listenerTls } from "../http/listener-certificate.ts";
import type { ShutdownSchedule } from "../shutdown-budget.ts";
import type { PartStarter } from "../start-in-order.ts";
import { listening, trackPart } from "../status/tracked-part.ts";
import { type RestServicesDeps, startRestServices } from "./rest-services.ts";

export interface RestApiDeps extends RestServicesDeps {
  /** Counts the REST API's requests refused by its rate limit (rate-limited-metric.ts). */
  countRateLimited: (() => void) | undefined;
  /** Counts what the listener refuses before answering (`steward_http_refused_total`). */
  countRefused?: ((reason: HttpRefusalReason) => void) | undefined;
  status: StatusBoard;
  parts: PartStarter;
  /** When, after the signal, the listener stops taking requests (local/shutdown-budget.ts). */
  shutdown?: ShutdownSchedule | undefined;
}

export interface RestApi {
  /** The container health check's probe of the store files. */
  healthProbes: ListenerProbe[];
}

export async function startRestApi(config: Config, logger: Logger, deps: RestApiDeps): Promise<RestApi> {
  const rest = config.restServer;
  if (!rest.enable) return { healthProbes: [] };
  const { status, parts, clock, countRateLimited } = deps;
  const warning = openListenerWarning(config, "restServer");
  if (warning !== undefined) logger.child("rest").warn(warning);
  const backing = await parts.start("rest-services", async () => {
    const started = await startRestServices(config, logger, deps);
    for (const [name, availability] of Object.entries(started.storeAvailability))
      status.set("stores", name, availability);
    return started;
  });
  const listener = stopsAcceptingAtSignal(
    {
      name: "rest-api",
      start: () =>
        startHttpListener({
          name: "REST API",
          app: createRestApp({
            config: rest,
            logger: logger.child("rest"),
            clock,
            rateLimitStore: createMemoryRateLimitStore(),
            clientIp: nodeClientIpBehind(rest.trustedProxies),
            services: backing.services,
            explorerAssets: swaggerUiAssets(),
            ...(countRateLimited === undefined ? {} : { countRateLimited }),
          }),
          host: rest.host,
          port: rest.port,
          allowedHosts: rest.allowedHosts,
          hostsSetting: "restServer.allowedHosts",
          maxConnections: rest.maxConnections,
          connectionsSetting: "restServer.maxConnections",
          countRefused: deps.countRefused,
          tls: listenerTls(config, "restServer", deps.cwd),
          clock,
          logger,
        }),
    },
    deps.shutdown,
  );
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
