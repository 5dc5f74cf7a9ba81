/**
 * The simulated tenant's webhook API, under both `/api/core/webhooks` and the deprecated
 * `/api/v1/webhooks` (the core one can be switched off, to stand for a tenant that predates it):
 * list, create (201), get, replace (PUT: omitted fields cleared, read-only ones refused 409),
 * patch (JSON Patch, 204), delete (204), the event types, deliveries and their resend. The secret
 * is stored for the sender and never returned (`secretKeyAdded` says whether there is one), as in
 * Qlik. Like the management console, a secret must be 32 to 64 characters.
 */
import {
  json,
  limitOf,
  notFound,
  page,
  problem,
  type RouteAnswer,
  type RouteRequest,
} from "./route-answers.ts";
import { deliverReload } from "./signed-event-sender.ts";
import { hexId, type StoredWebhook, type TenantState } from "./tenant-state.ts";

const PREFIX = /^\/api\/(core|v1)\/webhooks(?:\/(.*))?$/;
const READ_ONLY = ["id", "createdAt", "updatedAt", "createdByUserId", "updatedByUserId", "secretKeyAdded"];
const PATCHABLE = [
  "name",
  "description",
  "url",
  "eventTypes",
  "headers",
  "enabled",
  "secret",
  "enableCloudEventDelivery",
];

const EVENT_TYPES = [
  {
    name: "com.qlik.v1.reload.finished",
    title: "Reload finished",
    category: "reloads",
    levels: ["tenant", "user"],
  },
  {
    name: "com.qlik.v1.app.reload.finished",
    title: "App reload finished",
    category: "apps",
    levels: ["tenant", "user"],
  },
  { name: "com.qlik.app.created", title: "App created", category: "apps", levels: ["tenant", "user"] },
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function view(webhook: StoredWebhook): Record<string, unknown> {
  const { secret, api: _api, ...shown } = webhook;
  return { ...shown, secretKeyAdded: secret !== "", origin: "api" };
}

function secretProblem(secret: unknown): RouteAnswer | undefined {
  if (secret === undefined || secret === "") return undefined;
  if (typeof secret !== "string" || secret.length < 32 || secret.length > 64)
    return problem(400, "WEBHOOK-5", "Invalid secret", "the secret must be 32 to 64 characters");
  return undefined;
}

function fromBody(body: Record<string, unknown>, now: string, api: string, id = hexId()): StoredWebhook {
  return {
    id,
    name: String(body.name),
    url: String(body.url),
    eventTypes: Array.isArray(body.eventTypes) ? body.eventTypes.map(String) : [],
    level: typeof body.level === "string" ? body.level : "tenant",
    enabled: body.enabled === true,
    description: typeof body.description === "string" ? body.description : "",
    secret: typeof body.secret === "string" ? body.secret : "",
    headers: isRecord(body.headers) ? (body.headers as Record<string, string>) : {},
    enableCloudEventDelivery: body.enableCloudEventDelivery === true,
    createdAt: now,
    updatedAt: now,
    api,
  };
}

function create(state: TenantState, request: RouteRequest, api: string): RouteAnswer {
  const body = request.body;
  if (!isRecord(body) || typeof body.name !== "string" || typeof body.url !== "string")
    return problem(400, "WEBHOOK-1", "Invalid request", "name and url are required");
  const invalid = secretProblem(body.secret);
  if (invalid !== undefined) return invalid;
  const webhook = fromBody(body, new Date(state.now()).toISOString(), api);
  state.webhooks.set(webhook.id, webhook);
  return json(201, view(webhook));
}

function replace(state: TenantState, webhook: StoredWebhook, body: unknown): RouteAnswer {
  if (!isRecord(body) || typeof body.name !== "string" || typeof body.url !== "string")
    return problem(400, "WEBHOOK-1", "Invalid request", "name and url are required");
  const readOnly = READ_ONLY.find((key) => key in body);
  if (readOnly !== undefined) return problem(409, "WEBHOOK-9", "Conflict", `${readOnly} is read-only`);
  const invalid = secretProblem(body.secret);
  if (invalid !== undefined) return invalid;
  const replaced = fromBody(body, webhook.createdAt, webhook.api, webhook.id);
  replaced.updatedAt = new Date(state.now()).toISOString();
  state.webhooks.set(webhook.id, replaced);
  return json(200, view(replaced));
}

function patch(state: TenantState, webhook: StoredWebhook, body: unknown): RouteAnswer {
  if (!Array.isArray(body))
    return problem(400, "WEBHOOK-1", "Invalid request", "expected a JSON Patch array");
  const changed: Record<string, unknown> = { ...webhook };
  for (const operation of body) {
    const field = isRecord(operation) && typeof operation.path === "string" ? operation.path.slice(1) : "";
    if (!isRecord(operation) || !PATCHABLE.includes(field))
      return problem(400, "WEBHOOK-1", "Invalid request", `cannot patch ${field || "that"}`);
    if (field === "secret") {
      const invalid = secretProblem(operation.value);
      if (invalid !== undefined) return invalid;
    }
    changed[field] = operation.op === "remove" ? undefined : operation.value;
  }
  const next = fromBody(changed, webhook.createdAt, webhook.api, webhook.id);
  next.updatedAt = new Date(state.now()).toISOString();
  state.webhooks.set(webhook.id, next);
  return { status: 204 };
}

async function deliveries(
  state: TenantState,
  request: RouteRequest,
  id: string,
  rest: string[],
): Promise<RouteAnswer> {
  const own = state.deliveries.filter((delivery) => delivery.webhookId === id);
  if (rest.length === 0) return json(200, page(own, request, { limit: limitOf(request.query, 20, 100) }));
  const delivery = own.find((candidate) => candidate.id === rest[0]);
  if (delivery === undefined) return notFound(`delivery ${rest[0]}`);
  if (rest.length === 1 && request.method === "GET") return json(200, delivery);
  if (rest[1] !== "actions" || rest[2] !== "resend" || request.method !== "POST") return notFound("route");
  const reload = state.reloads.find((candidate) => delivery.body.includes(candidate.eventId));
  if (reload === undefined) return notFound(`the event of delivery ${delivery.id}`);
  const [resent] = await deliverReload(state, reload);
  return resent === undefined ? notFound(`webhook ${id}`) : json(201, resent);
}

/** The answer of a webhook route, or undefined when the path is not one. */
export async function answerWebhookRoute(
  state: TenantState,
  request: RouteRequest,
): Promise<RouteAnswer | undefined> {
  const match = PREFIX.exec(request.path);
  if (match === null) return undefined;
  const api = match[1] as string;
  if (api === "core" && !state.coreWebhooks) return notFound("route");
  const [id, ...rest] = (match[2] ?? "").split("/").filter((part) => part !== "");
  if (id === undefined) {
    if (request.method === "POST") return create(state, request, api);
    if (request.method !== "GET") return notFound("route");
    const url = request.query.get("url");
    const listed = [...state.webhooks.values()].filter((webhook) => url === null || webhook.url === url);
    const shown = page(listed.map(view), request, { limit: limitOf(request.query, 20, 100) });
    return json(200, shown);
  }
  if (id === "event-types" && request.method === "GET") return json(200, { data: EVENT_TYPES });
  const webhook = state.webhooks.get(id);
  if (webhook === undefined) return notFound(`webhook ${id}`);
  if (rest[0] === "deliveries") return deliveries(state, request, id, rest.slice(1));
  if (rest.length > 0) return notFound("route");
  switch (request.method) {
    case "GET":
      return json(200, view(webhook));
    case "PUT":
      return replace(state, webhook, request.body);
    case "PATCH":
      return patch(state, webhook, request.body);
    case "DELETE":
      state.webhooks.delete(id);
      return { status: 204 };
    default:
      return notFound("route");
  }
}
