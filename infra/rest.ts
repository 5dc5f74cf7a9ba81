/**
 * The management REST API (/v4) function and its routes: one function for every group but files
 * (local only: the approved directories are on the on-prem servers, not in a Lambda's /tmp),
 * routed by its ARN (one function, not one per route), linked to the config secret, the
 * key-value, schedule and rate-limit tables. Every PUT/DELETE path also gets a POST route so that
 * `X-HTTP-Method-Override` reaches the function. `/documentation/json` and the API explorer
 * (`/documentation` and its files) are routed here: the REST document includes the ingest API's
 * operations. The explorer's files come from `swagger-ui-dist`, installed beside the
 * bundle (`nodejs.install`) because they are read from the package at run time, never from a
 * CDN. The platform endpoints (apps, reload tasks) are not routed: they are served by the local /
 * on-prem runtime, where the platform and its client certificates are (docs/management-api.md). On its tables it may only read and write items, with the actions its stores send
 * (infra/links.ts): it can neither delete a table nor read another.
 */
import { api } from "./api.ts";
import { functionDefaults } from "./functions.ts";
import { reservedConcurrency } from "./limits.ts";
import { rateLimitTable } from "./tables.ts";
import { keyValueTable, scheduleTable } from "./tables-rest.ts";

export const restRoutes = [
  "GET /documentation/json",
  "GET /documentation",
  "GET /documentation/assets/{name}",
  "GET /v4/configfile/endpointsenabled",
  "GET /v4/ping",
  "GET /v4/base62tobase16",
  "GET /v4/base16tobase62",
  "GET /v4/keyvaluesnamespaces",
  "GET /v4/keyvalues/{namespace}",
  "POST /v4/keyvalues/{namespace}",
  "DELETE /v4/keyvalues/{namespace}",
  "GET /v4/keyvalues/{namespace}/keyexists",
  "DELETE /v4/keyvalues/{namespace}/{key}",
  "GET /v4/keylist/{namespace}",
  "PUT /v4/mqttpublishmessage",
  "POST /v4/observability/event",
  "POST /v4/observability/metric",
  "PUT /v4/chatpostmessage",
  "GET /v4/schedules",
  "POST /v4/schedules",
  "GET /v4/schedules/status",
  "PUT /v4/schedules/startall",
  "PUT /v4/schedules/stopall",
  "PUT /v4/schedules/{scheduleId}/start",
  "PUT /v4/schedules/{scheduleId}/stop",
  "DELETE /v4/schedules/{scheduleId}",
] as const;

/** POST twins of PUT/DELETE paths without a POST route of their own (X-HTTP-Method-Override). */
export const methodOverrideRoutes = [
  ...new Set(
    restRoutes
      .filter((route) => route.startsWith("PUT ") || route.startsWith("DELETE "))
      .map((route) => `POST ${route.slice(route.indexOf(" ") + 1)}`)
      .filter((route) => !(restRoutes as readonly string[]).includes(route)),
  ),
];

export const restFunction = new sst.aws.Function("Rest", {
  ...functionDefaults,
  handler: "functions/rest/handler.handler",
  nodejs: { ...functionDefaults.nodejs, install: ["swagger-ui-dist"] },
  link: [...functionDefaults.link, keyValueTable, scheduleTable, rateLimitTable],
  permissions: [
    // core/adapters/aws/dynamo-key-value-table.ts
    {
      actions: [
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:DeleteItem",
        "dynamodb:Query",
        "dynamodb:BatchWriteItem",
        // The namespaces' used bytes (keyValueStore.maxTotalBytes) are counted with ADD and SET.
        "dynamodb:UpdateItem",
      ],
      resources: [keyValueTable.arn],
    },
    // core/adapters/aws/dynamo-schedule-store.ts
    {
      actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:Scan"],
      resources: [scheduleTable.arn],
    },
    // core/adapters/aws/dynamo-rate-limit-store.ts
    { actions: ["dynamodb:UpdateItem"], resources: [rateLimitTable.arn] },
  ],
  concurrency: { reserved: reservedConcurrency.rest },
});

for (const route of [...restRoutes, ...methodOverrideRoutes]) api.route(route, restFunction.arn);
