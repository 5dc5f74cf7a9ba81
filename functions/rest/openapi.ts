/**
 * The OpenAPI 3.0 document of the REST API, built from the same route declarations (and so the
 * same valibot schemas) that validate requests; the API explorer at /documentation
 * (functions/http/api-explorer.ts) shows it.
 * `includeOpenApi` adds another generated document's operations (the ingest API's), so one
 * document describes both APIs.
 */
import * as v from "valibot";
import { type OpenApiSchema, toOpenApiSchema } from "../http/valibot-to-openapi.ts";
import type { RouteSpec } from "./route.ts";

const ErrorSchema = v.object({ statusCode: v.number(), error: v.string(), message: v.string() });
const errorRef = { $ref: "#/components/schemas/Error" };
const COMMON_ERRORS: Record<number, string> = {
  400: "Invalid input",
  401: "Bearer token required (restServer.apiToken set)",
  413: "Body larger than restServer.maxBodyBytes",
  415: "Body is not application/json",
  429: "Rate limit exceeded",
  500: "Internal error",
};

interface ObjectNode {
  entries?: Record<string, { type: string }>;
}

function parameters(schema: object | undefined, location: "path" | "query"): OpenApiSchema[] {
  const entries = (schema as ObjectNode | undefined)?.entries ?? {};
  return Object.entries(entries).map(([name, entry]) => ({
    name,
    in: location,
    required: location === "path" || entry.type !== "optional",
    schema: toOpenApiSchema(entry),
  }));
}

function operation(route: RouteSpec): OpenApiSchema {
  const responses: Record<string, OpenApiSchema> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const entry: OpenApiSchema = { description: response.description };
    if (response.schema !== undefined) {
      entry.content = { "application/json": { schema: toOpenApiSchema(response.schema) } };
    } else if (response.text) {
      entry.content = { "text/plain": { schema: { type: "string" } } };
    } else if (Number(status) >= 400) {
      entry.content = { "application/json": { schema: errorRef } };
    }
    responses[status] = entry;
  }
  for (const [status, description] of Object.entries(COMMON_ERRORS)) {
    if (status === "413" || status === "415") {
      if (route.body === undefined) continue;
    }
    responses[status] ??= { description, content: { "application/json": { schema: errorRef } } };
  }
  const op: OpenApiSchema = {
    tags: [route.tag],
    summary: route.summary,
    description: `Served when restServer.endpointsEnable.${route.endpoint} is true (otherwise 404).`,
    parameters: [...parameters(route.params, "path"), ...parameters(route.query, "query")],
    responses,
  };
  if (route.body !== undefined) {
    op.requestBody = {
      required: route.emptyBody === undefined,
      content: { "application/json": { schema: toOpenApiSchema(route.body) } },
    };
  }
  return op;
}

export function buildRestOpenApi(routes: readonly RouteSpec[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, OpenApiSchema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "Steward management REST API",
      version,
      description:
        "Management API (/v4). Errors are {statusCode, error, message}. POST with X-HTTP-Method-Override: PUT or DELETE " +
        "is handled as that method. The audit event ingest API (/api/v1, tag 'Audit events') is included: locally it is " +
        "served by the ingest listener (auditEvents.host:port), in AWS by the same API Gateway.",
    },
    paths,
    components: {
      schemas: { Error: toOpenApiSchema(ErrorSchema) },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
  };
}

type OpenApiDocument = Record<string, unknown>;
type Paths = Record<string, Record<string, OpenApiSchema>>;

/**
 * `base` with the paths and components of `other` added: each added operation gets `tag` and,
 * when it has none of its own, `other`'s top-level security. A path or component name defined by
 * both with different content throws (a silent overwrite would document the wrong API).
 */
export function includeOpenApi(base: OpenApiDocument, other: OpenApiDocument, tag: string): OpenApiDocument {
  const paths: Paths = { ...(base.paths as Paths) };
  for (const [path, operations] of Object.entries(other.paths as Paths)) {
    if (paths[path] !== undefined) throw new Error(`OpenAPI path ${path} is defined by both documents`);
    const tagged: Record<string, OpenApiSchema> = {};
    for (const [method, op] of Object.entries(operations)) {
      tagged[method] = {
        ...op,
        tags: [tag],
        ...(op.security === undefined && other.security !== undefined ? { security: other.security } : {}),
      };
    }
    paths[path] = tagged;
  }
  const baseComponents = (base.components ?? {}) as Record<string, Record<string, unknown>>;
  const otherComponents = (other.components ?? {}) as Record<string, Record<string, unknown>>;
  const components: Record<string, Record<string, unknown>> = { ...baseComponents };
  for (const [kind, entries] of Object.entries(otherComponents)) {
    const merged = { ...components[kind] };
    for (const [name, value] of Object.entries(entries)) {
      if (merged[name] !== undefined && JSON.stringify(merged[name]) !== JSON.stringify(value)) {
        throw new Error(`OpenAPI component ${kind}/${name} differs between the documents`);
      }
      merged[name] = value;
    }
    components[kind] = merged;
  }
  return { ...base, paths, components };
}
