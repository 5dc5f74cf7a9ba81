/**
 * The config UI listener's Hono app: `GET /` the page,
 * `GET /config.yaml` the shown YAML as a download, `GET /status` the status document (JSON,
 * docs/self-monitoring.md, "Config UI and status page"), `/assets/*` the page's own stylesheet
 * and script; anything else is a 404 page. Every request counts against a fixed 60 s window per client IP
 * (`limitPerMinute`, 300 by default; 429 beyond). A refused client is named at WARN at most once a
 * minute with the count of its refused requests, as the APIs' rate limits do, not once per request:
 * a page left open in many tabs, or a script polling /status, would otherwise flood the log with
 * exactly the traffic the limit holds back. The page is built once from the view: with obfuscation
 * on, no secret reaches any of these answers.
 */
import { Hono } from "hono";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import type { ConfigView } from "../../core/config/index.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { createFixedWindowLimiter, createRateLimitRefusals } from "../../core/ratelimit/index.ts";
import type { ClientIpResolver } from "../../functions/http/problem.ts";
import { rateLimit } from "../../functions/http/rate-limit.ts";
import { respond, setResponseHeader } from "../../functions/http/response-headers.ts";
import { securityHeaders } from "../../functions/http/security-headers.ts";
import { renderConfigPage } from "./page.ts";
import { PAGE_CSS } from "./page-style.ts";
import { STATUS_SCRIPT } from "./status-script.ts";
import { escapeHtml } from "./yaml-html.ts";

export const CONFIG_UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Requests per client IP per 60 s window, Butler SOS's limit for the same page. */
export const CONFIG_UI_LIMIT_PER_MINUTE = 300;

export interface ConfigUiAppDeps {
  view: ConfigView;
  obfuscated: boolean;
  status: StatusBoard;
  clock: Clock;
  logger: Logger;
  clientIp: ClientIpResolver;
  limitPerMinute?: number;
  /** Counts each request refused by the rate limit (the scrape metric, rate-limited-metric.ts). */
  countRateLimited?: () => void;
}

const ASSETS: Readonly<Record<string, { body: string; type: string }>> = {
  "page.css": { body: PAGE_CSS, type: "text/css; charset=UTF-8" },
  "status.js": { body: STATUS_SCRIPT, type: "text/javascript; charset=UTF-8" },
};

const notFoundPage = (path: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>` +
  `<body><h1>Not found</h1><p>${escapeHtml(path)} is not here. <a href="/">Back to the status page</a></p></body></html>`;

export function createConfigUiApp(deps: ConfigUiAppDeps): Hono {
  const { logger, clock, clientIp } = deps;
  const page = renderConfigPage({ yaml: deps.view.yaml, tree: deps.view.tree, obfuscated: deps.obfuscated });
  const maxPerMinute = deps.limitPerMinute ?? CONFIG_UI_LIMIT_PER_MINUTE;
  const limiter = createFixedWindowLimiter(
    { maxPerWindow: maxPerMinute },
    { store: createMemoryRateLimitStore(), clock },
  );
  const refusals = createRateLimitRefusals({
    logger,
    clock,
    maxPerMinute,
    ...(deps.countRateLimited === undefined ? {} : { count: deps.countRateLimited }),
  });
  const app = new Hono();
  app.use("*", securityHeaders({ "Content-Security-Policy": CONFIG_UI_CSP }));
  app.use(
    "*",
    rateLimit({
      limiter,
      clientIp,
      clock,
      refusals,
      formatError: (c, problem) => respond(c, `${problem.reason}\n`, 429, "text/plain; charset=UTF-8"),
    }),
  );
  app.get("/", (c) => respond(c, page, 200, "text/html; charset=UTF-8"));
  app.get("/config.yaml", (c) => {
    setResponseHeader(c, "Content-Disposition", 'attachment; filename="steward-config.yaml"');
    return respond(c, deps.view.yaml, 200, "application/yaml; charset=UTF-8");
  });
  app.get("/status", (c) => respond(c, JSON.stringify(deps.status.document()), 200, "application/json"));
  app.get("/assets/:name", (c) => {
    const asset = ASSETS[c.req.param("name")];
    if (asset === undefined) return respond(c, notFoundPage(c.req.path), 404, "text/html; charset=UTF-8");
    return respond(c, asset.body, 200, asset.type);
  });
  app.notFound((c) => respond(c, notFoundPage(c.req.path), 404, "text/html; charset=UTF-8"));
  return app;
}
