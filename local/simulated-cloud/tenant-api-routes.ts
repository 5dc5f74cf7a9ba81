/**
 * The simulated tenant's read APIs that Steward uses: reloads (listed with `sort` on their
 * times, `limit` and an opaque `next`), one reload, apps, script logs (`text/plain`, CRLF lines),
 * items by app, spaces, users (`/users/me` is the caller), `/tenants/me` (a 302 to the tenant,
 * as Qlik answers it), and the audits with `eventType`, an `eventTime` interval, `sort`, `limit`
 * and absolute `links.next.href`, and their archive by day. Shapes follow Qlik's published
 * types, with the simulated tenant's own values.
 */
import { reloadAuditItem } from "./reload-event-bodies.ts";
import {
  json,
  limitOf,
  notFound,
  page,
  problem,
  type RouteAnswer,
  type RouteRequest,
  sortedBy,
} from "./route-answers.ts";
import type { SimulatedReload, TenantState } from "./tenant-state.ts";

const RELOAD_TIMES = ["creationTime", "startTime", "endTime"];

function reloadObject(reload: SimulatedReload, baseUrl: string): Record<string, unknown> {
  const { scriptLog: _log, eventId: _event, ...fields } = reload;
  return {
    ...fields,
    engineTime: reload.startTime,
    log: `ReloadID: ${reload.id}\nReload ${reload.status === "SUCCEEDED" ? "finished successfully" : "failed"}\n`,
    resourceId: reload.appId,
    resourceType: "app",
    links: { self: { href: `${baseUrl}/api/v1/reloads/${reload.id}` } },
  };
}

function reloads(state: TenantState, request: RouteRequest): RouteAnswer {
  const appId = request.query.get("appId");
  const chosen = state.reloads.filter((reload) => appId === null || reload.appId === appId);
  const sorted = sortedBy(chosen, request.query.get("sort") ?? "-creationTime", RELOAD_TIMES);
  const listed = page(sorted, request, { limit: limitOf(request.query, 10, 100) });
  return json(200, { ...listed, data: listed.data.map((reload) => reloadObject(reload, request.baseUrl)) });
}

/** `eventTime=<from>/<to>`, both ends included; undefined when absent or not two times. */
function interval(text: string | null): { from: number; to: number } | undefined {
  if (text === null) return undefined;
  const [from, to] = text.split("/").map((part) => Date.parse(part));
  return from !== undefined && to !== undefined && Number.isFinite(from) && Number.isFinite(to)
    ? { from, to }
    : undefined;
}

function audits(state: TenantState, request: RouteRequest): RouteAnswer {
  const { query } = request;
  const type = query.get("eventType");
  const window = interval(query.get("eventTime"));
  if (query.get("eventTime") !== null && window === undefined)
    return problem(400, "AUDITS-400", "Bad request", "eventTime must be an interval <start>/<end>");
  // The simulated tenant's only audited events are its reloads' finished events.
  const typed = type === null || type === "com.qlik.v1.reload.finished" ? state.reloads : [];
  const items = typed
    .filter((reload) => {
      const at = Date.parse(reload.endTime);
      return window === undefined || (at >= window.from && at <= window.to);
    })
    .map((reload) => reloadAuditItem(state.fixture, reload, request.baseUrl));
  const sorted = sortedBy(items, query.get("sort") ?? "-eventTime", ["eventTime"]);
  return json(200, page(sorted, request, { limit: limitOf(query, 10, 100) }));
}

function archive(state: TenantState, request: RouteRequest): RouteAnswer {
  const date = request.query.get("date");
  if (date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date))
    return problem(400, "AUDITS-400", "Bad request", "date (YYYY-MM-DD) is required");
  const data = state.reloads
    .filter((reload) => reload.endTime.startsWith(date))
    .map((reload) => {
      const { id: _id, links: _links, ...item } = reloadAuditItem(state.fixture, reload, request.baseUrl);
      return item;
    });
  return json(200, { data });
}

function app(state: TenantState, appId: string): RouteAnswer {
  const found = state.fixture.apps.find((candidate) => candidate.id === appId);
  if (found === undefined) return notFound(`app ${appId}`);
  return json(200, {
    attributes: {
      id: found.id,
      name: found.name,
      description: found.description,
      ownerId: found.ownerId,
      usage: "ANALYTICS",
      published: false,
      publishTime: "",
    },
    create: [],
    privileges: ["read"],
  });
}

function scriptLog(state: TenantState, appId: string, reloadId: string): RouteAnswer {
  const reload = state.reloads.find((candidate) => candidate.id === reloadId && candidate.appId === appId);
  if (reload === undefined) return notFound(`script log of reload ${reloadId}`);
  return { status: 200, body: reload.scriptLog, contentType: "text/plain; charset=UTF-8" };
}

function items(state: TenantState, request: RouteRequest): RouteAnswer {
  const resourceId = request.query.get("resourceId");
  const data = state.fixture.apps
    .filter((candidate) => resourceId === null || candidate.id === resourceId)
    .map((found) => ({
      id: `item${found.id.slice(4, 24)}`,
      name: found.name,
      resourceId: found.id,
      resourceType: "app",
      ownerId: found.ownerId,
      creatorId: found.ownerId,
      ...(found.spaceId === undefined ? {} : { spaceId: found.spaceId }),
      meta: { tags: found.tags.map((name, i) => ({ id: `tag${i}`, name })), collections: [] },
      links: { open: { href: `${request.baseUrl}/sense/app/${found.id}` } },
    }));
  return json(200, page(data, request, { limit: limitOf(request.query, 10, 100) }));
}

/** GET routes by pattern; the first match answers. */
const ROUTES: ReadonlyArray<
  readonly [RegExp, (state: TenantState, request: RouteRequest, m: RegExpExecArray) => RouteAnswer]
> = [
  [/^\/api\/v1\/reloads$/, (state, request) => reloads(state, request)],
  [
    /^\/api\/v1\/reloads\/([^/]+)$/,
    (state, request, m) => {
      const reload = state.reloads.find((candidate) => candidate.id === m[1]);
      return reload === undefined
        ? notFound(`reload ${m[1]}`)
        : json(200, reloadObject(reload, request.baseUrl));
    },
  ],
  [
    /^\/api\/v1\/apps\/([^/]+)\/reloads\/logs\/([^/]+)$/,
    (state, _r, m) => scriptLog(state, m[1] as string, m[2] as string),
  ],
  [/^\/api\/v1\/apps\/([^/]+)$/, (state, _r, m) => app(state, m[1] as string)],
  [/^\/api\/v1\/items$/, (state, request) => items(state, request)],
  [
    /^\/api\/v1\/spaces\/([^/]+)$/,
    (state, _r, m) => {
      const space = state.fixture.spaces.find((candidate) => candidate.id === m[1]);
      return space === undefined
        ? notFound(`space ${m[1]}`)
        : json(200, { ...space, tenantId: state.fixture.tenantId });
    },
  ],
  [
    /^\/api\/v1\/users\/me$/,
    (state) =>
      json(200, {
        id: `bot-${state.fixture.clientId}`,
        name: "Steward (machine-to-machine)",
        status: "active",
      }),
  ],
  [
    /^\/api\/v1\/users\/([^/]+)$/,
    (state, _r, m) => {
      const user = state.fixture.users.find((candidate) => candidate.id === m[1]);
      return user === undefined
        ? notFound(`user ${m[1]}`)
        : json(200, { ...user, status: "active", tenantId: state.fixture.tenantId });
    },
  ],
  [
    /^\/api\/v1\/tenants\/me$/,
    (state, request) => ({
      status: 302,
      headers: { location: `${request.baseUrl}/api/v1/tenants/${state.fixture.tenantId}` },
    }),
  ],
  [
    /^\/api\/v1\/tenants\/([^/]+)$/,
    (state, request, m) =>
      m[1] !== state.fixture.tenantId
        ? notFound(`tenant ${m[1]}`)
        : json(200, {
            id: state.fixture.tenantId,
            name: state.fixture.name,
            hostnames: [new URL(request.baseUrl).host],
            status: "active",
          }),
  ],
  [/^\/api\/v1\/audits\/archive$/, (state, request) => archive(state, request)],
  [/^\/api\/v1\/audits$/, (state, request) => audits(state, request)],
];

/** The answer of a GET route, or undefined when none matches. */
export function answerReadRoute(state: TenantState, request: RouteRequest): RouteAnswer | undefined {
  if (request.method !== "GET") return undefined;
  for (const [pattern, answer] of ROUTES) {
    const match = pattern.exec(request.path);
    if (match !== null) return answer(state, request, match);
  }
  return undefined;
}
