/**
 * The management REST API (/v4) as a Hono app, built by `createApp(deps)` from Web APIs only, so
 * the same app runs under @hono/node-server (local/) and in Lambda (handler.ts).
 *
 * Order per request: X-HTTP-Method-Override (POST → PUT/DELETE, re-dispatched) → request log →
 * security headers → CORS → rate limit → bearer token (/v4 and the OpenAPI document) → route
 * (415/413/400 body, schema 400) → use case. The OpenAPI document lists the endpoints this
 * instance serves (file operations, reloads), so with a token set it needs the token like /v4;
 * the explorer page and its files hold no data and load without it, and the page asks the person
 * for the token (api-explorer.ts). An endpoint is served when its `endpointsEnable` key is true AND the
 * service it needs was wired (files are not wired in Lambda): otherwise 404, and it is not listed
 * by GET /v4/configfile/endpointsenabled.
 */

import { Hono } from "hono";
import { PatternRouter } from "hono/router/pattern-router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import {
  ENDPOINT_KEYS,
  type EndpointKey,
  FILE_ENDPOINT_KEYS,
  PLATFORM_ENDPOINT_KEYS,
  type RestServerConfig,
  SCHEDULE_ENDPOINT_KEYS,
} from "../../core/config/index.ts";
import type {
  BrokerClient,
  ChatClient,
  Clock,
  FileOperations,
  KeyValueStore,
  Logger,
  ObservabilityClient,
  RateLimitStore,
} from "../../core/ports.ts";
import { createFixedWindowLimiter, createRateLimitRefusals } from "../../core/ratelimit/index.ts";
import type { ScheduleManager } from "../../core/schedules/index.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import {
  EXPLORER_ASSET_PREFIX,
  EXPLORER_CSP,
  EXPLORER_PATH,
  type ExplorerAssets,
  explorerFile,
  explorerPage,
} from "../http/api-explorer.ts";
import { bearerAuth } from "../http/bearer-auth.ts";
import { cors } from "../http/cors.ts";
import { errorHandler } from "../http/error-handler.ts";
import type { ClientIpResolver } from "../http/problem.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { respond, setResponseHeader } from "../http/response-headers.ts";
import { securityHeaders } from "../http/security-headers.ts";
import { methodOverride } from "./method-override.ts";
import { requestLog } from "./request-log.ts";
import { htmlResponse, jsonTextResponse } from "./respond.ts";
import { formatRestError } from "./rest-errors.ts";
import { type RouteSpec, registerRoute } from "./route.ts";
import { fileRoutes } from "./routes/files.ts";
import { keyValueRoutes } from "./routes/key-value.ts";
import { brokerRoutes, chatRoutes, observabilityRoutes } from "./routes/messaging.ts";
import { type PlatformRoutesDeps, platformRoutes } from "./routes/platform.ts";
import { scheduleRoutes } from "./routes/schedules.ts";
import { systemRoutes } from "./routes/system.ts";

export { PING_RESPONSE } from "./routes/system.ts";

/** The slice of `config.restServer` the app reads. */
export type RestSettings = Pick<
  RestServerConfig,
  "apiToken" | "maxBodyBytes" | "cors" | "rateLimit" | "endpointsEnable"
>;

/** The use cases behind the endpoint groups; a group whose service is absent is not served. */
export interface RestServices {
  keyValues?: KeyValueStore;
  schedules?: ScheduleManager;
  files?: FileOperations;
  broker?: BrokerClient;
  observability?: ObservabilityClient;
  chat?: ChatClient;
  platform?: Omit<PlatformRoutesDeps, "logger">;
}

export interface RestAppDeps {
  config: RestSettings;
  logger: Logger;
  clock: Clock;
  /** Client address for the per-IP rate limit (nodeClientIp locally, lambdaClientIp in Lambda). */
  clientIp?: ClientIpResolver;
  /** Rate-limit counters: in memory locally, DynamoDB in Lambda (so instances share them). */
  rateLimitStore: RateLimitStore;
  services?: RestServices;
  /** Swagger UI's files for the explorer at /documentation (without them its assets are 404). */
  explorerAssets?: ExplorerAssets;
  /** Counts each request the rate limit refuses (the local scrape metric); the WARN is logged either way. */
  countRateLimited?: () => void;
}

export const REST_OPENAPI_PATH = "/documentation/json";
export const REST_DOCUMENTATION_PATH = EXPLORER_PATH;

const FILE_KEYS = new Set<EndpointKey>(FILE_ENDPOINT_KEYS);
const SCHEDULE_KEYS = new Set<EndpointKey>(SCHEDULE_ENDPOINT_KEYS);
const PLATFORM_KEYS = new Set<EndpointKey>(PLATFORM_ENDPOINT_KEYS);

/** Whether the service an endpoint key needs is wired. */
function isAvailable(key: EndpointKey, services: RestServices): boolean {
  if (FILE_KEYS.has(key)) return services.files !== undefined;
  if (SCHEDULE_KEYS.has(key)) return services.schedules !== undefined;
  if (PLATFORM_KEYS.has(key)) return services.platform !== undefined;
  switch (key) {
    case "keyValueStore":
      return services.keyValues !== undefined;
    case "mqttPublishMessage":
      return services.broker !== undefined;
    case "observabilityEvent":
    case "observabilityMetric":
      return services.observability !== undefined;
    case "chatPostMessage":
      return services.chat !== undefined;
    default:
      return true;
  }
}

/** The endpoint keys this app serves, in config order. */
export function servedEndpoints(config: RestSettings, services: RestServices): EndpointKey[] {
  return ENDPOINT_KEYS.filter((key) => config.endpointsEnable[key] && isAvailable(key, services));
}

function routesFor(services: RestServices, served: readonly EndpointKey[], logger: Logger): RouteSpec[] {
  const routes = systemRoutes(() => served);
  if (services.keyValues) routes.push(...keyValueRoutes(services.keyValues));
  if (services.schedules) routes.push(...scheduleRoutes(services.schedules));
  if (services.files) routes.push(...fileRoutes(services.files));
  if (services.broker) routes.push(...brokerRoutes(services.broker));
  if (services.observability) routes.push(...observabilityRoutes(services.observability));
  if (services.chat) routes.push(...chatRoutes(services.chat));
  if (services.platform) routes.push(...platformRoutes({ ...services.platform, logger }));
  const enabled = new Set(served);
  return routes.filter((route) => enabled.has(route.endpoint));
}

export function createApp(deps: RestAppDeps): Hono {
  const { config, logger, clock } = deps;
  const services = deps.services ?? {};
  const clientIp = deps.clientIp ?? (() => "unknown");
  const served = servedEndpoints(config, services);
  const unavailable = ENDPOINT_KEYS.filter(
    (key) => config.endpointsEnable[key] && !isAvailable(key, services),
  );
  if (unavailable.length > 0) {
    logger.warn("Enabled endpoints not available in this runtime; not served", {
      endpoints: unavailable.join(","),
    });
  }
  if (deps.clientIp === undefined && config.rateLimit.enable) {
    logger.warn("No client IP resolver wired: all REST clients share one rate-limit counter");
  }

  // Hono's default falls back to TrieRouter when RegExpRouter refuses the route set, which it
  // does for the schedule paths (`/v4/schedules/startall` beside `/v4/schedules/{id}/start`);
  // TrieRouter took ~2 µs per match of a route with a parameter against PatternRouter's ~0.6 µs.
  // All three answer every matching route in registration order, so behaviour is the same.
  const app = new Hono({ router: new SmartRouter({ routers: [new RegExpRouter(), new PatternRouter()] }) });
  app.onError(errorHandler({ logger, formatError: formatRestError, reason: "Internal error" }));
  app.notFound((c) =>
    formatRestError(c, { status: 404, reason: `Route ${c.req.method}:${c.req.path} not found` }),
  );

  // POST only: GETs skip the check entirely (every middleware layer costs a little per request).
  app.post("*", methodOverride(app));
  // The level is fixed at start (config / --log-level), so the log layer exists only when used.
  if (logger.isLevelEnabled("verbose")) app.use("*", requestLog({ logger, clock, clientIp }));
  app.use("*", securityHeaders());
  app.use(
    "*",
    cors({
      allowedOrigins: config.cors.allowedOrigins,
      formatError: formatRestError,
      allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    }),
  );
  if (config.rateLimit.enable) {
    const limiter = createFixedWindowLimiter(
      { maxPerWindow: config.rateLimit.maxPerMinute },
      { store: deps.rateLimitStore, clock },
    );
    const refusals = createRateLimitRefusals({
      logger,
      clock,
      maxPerMinute: config.rateLimit.maxPerMinute,
      ...(deps.countRateLimited === undefined ? {} : { count: deps.countRateLimited }),
    });
    app.use("*", rateLimit({ limiter, clientIp, clock, formatError: formatRestError, refusals }));
  }
  // Registered only with a token: an always-passing middleware would still cost every request.
  if (config.apiToken !== "") {
    const auth = bearerAuth({ token: config.apiToken, formatError: formatRestError, logger, clientIp });
    app.use("/v4/*", auth);
    app.use(REST_OPENAPI_PATH, auth);
  }

  const routes = routesFor(services, served, logger);
  for (const route of routes) registerRoute(app, route, { maxBodyBytes: config.maxBodyBytes });

  // One document for both APIs, each part generated from its own validators. Built
  // on the first request for it, not in every (Lambda cold) start, by generators imported then:
  // split into chunks of their own, a cold start neither loads nor compiles them.
  let documentation: Promise<{ json: string; page: string }> | undefined;
  const built = () => {
    documentation ??= buildDocumentation(routes).catch((error: unknown) => {
      documentation = undefined;
      throw error;
    });
    return documentation;
  };
  const assets = deps.explorerAssets;
  app.get(REST_OPENAPI_PATH, async (c) => jsonTextResponse(c, (await built()).json));
  app.get(REST_DOCUMENTATION_PATH, async (c) => {
    const { page } = await built();
    setResponseHeader(c, "Content-Security-Policy", EXPLORER_CSP);
    return htmlResponse(c, page);
  });
  app.get(`${EXPLORER_ASSET_PREFIX}:name`, async (c) => {
    const file = assets === undefined ? undefined : await explorerFile(c.req.param("name"), assets);
    if (file === undefined) {
      return formatRestError(c, { status: 404, reason: `Route ${c.req.method}:${c.req.path} not found` });
    }
    // The files change only with the pinned package version: a browser may keep them an hour.
    setResponseHeader(c, "Cache-Control", "public, max-age=3600");
    return respond(c, file.body, 200, file.contentType);
  });
  return app;
}

/** The OpenAPI document of `routes` with the ingest API's operations, and the explorer's page. */
async function buildDocumentation(routes: readonly RouteSpec[]): Promise<{ json: string; page: string }> {
  const [{ buildRestOpenApi, includeOpenApi }, { buildIngestOpenApi }] = await Promise.all([
    import("./openapi.ts"),
    import("../audit-ingest/openapi.ts"),
  ]);
  const document = includeOpenApi(
    buildRestOpenApi(routes, SERVICE_VERSION),
    buildIngestOpenApi(SERVICE_VERSION),
    "Audit events",
  );
  const info = document.info as { title: string; version: string };
  return {
    json: JSON.stringify(document),
    page: explorerPage(`${info.title} ${info.version}`, REST_OPENAPI_PATH, "restServer.apiToken"),
  };
}
