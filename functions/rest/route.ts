/**
 * How REST routes are declared: one object per route holding its method, path, endpoint key,
 * valibot schemas for params, query and body, its documented responses and its handler. The
 * same declaration registers the Hono route (with validation → 400) and feeds the OpenAPI
 * document, so documentation and validation cannot drift apart.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { EndpointKey } from "../../core/config/index.ts";
import { jsonBody } from "../http/json-body.ts";
import { setResponseHeader } from "../http/response-headers.ts";
import { formatRestError, problemOf, RequestValidationError, retryAfterOf } from "./rest-errors.ts";

type AnySchema = v.GenericSchema;
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface ResponseSpec {
  description: string;
  /** JSON body schema; `text` for text/plain; absent for an empty body. */
  schema?: AnySchema;
  text?: true;
}

export interface RouteInput<P extends AnySchema, Q extends AnySchema, B extends AnySchema> {
  params: v.InferOutput<P>;
  query: v.InferOutput<Q>;
  body: v.InferOutput<B>;
}

export interface RouteSpec<
  P extends AnySchema = AnySchema,
  Q extends AnySchema = AnySchema,
  B extends AnySchema = AnySchema,
> {
  method: HttpMethod;
  /** OpenAPI form: /v4/keyvalues/{namespace}. */
  path: string;
  endpoint: EndpointKey;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Makes the body optional: an empty body is validated as `whenEmpty` (e.g. `[]`). */
  emptyBody?: { whenEmpty: v.InferInput<B> };
  responses: Readonly<Record<number, ResponseSpec>>;
  handler: (input: RouteInput<P, Q, B>, c: Context) => Promise<Response> | Response;
}

/** Identity function that lets TypeScript infer the handler's input types from the schemas. */
export function defineRoute<P extends AnySchema, Q extends AnySchema, B extends AnySchema>(
  spec: RouteSpec<P, Q, B>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** `"body/value: Invalid type: Expected string but received 123"`, every issue, `; `-joined. */
export function describeIssues(where: string, issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const keys = (issue.path ?? []).map((item) => String(item.key));
      const missing = issue.kind === "schema" && issue.received === "undefined";
      return `${[where, ...keys].join("/")}: ${missing ? "required" : issue.message}`;
    })
    .join("; ");
}

function validate(schema: AnySchema, input: unknown, where: string): unknown {
  // valibot's object() accepts arrays (typeof "object"); a JSON array is never an object body.
  if (Array.isArray(input) && schema.type === "object") {
    throw new RequestValidationError(`${where}: Invalid type: Expected Object but received Array`);
  }
  const result = v.safeParse(schema, input);
  if (!result.success) throw new RequestValidationError(describeIssues(where, result.issues));
  return result.output;
}

type ReadOne = (c: Context, key: string) => string | undefined;
type ReadAll = (c: Context) => Record<string, string>;

/**
 * How a route reads its params or query: a plain `v.object` drops every key it does not
 * declare, so only the declared keys are read (each with Hono's single-key lookup, decoded and
 * first value as the whole-record read gives) instead of building a record of everything per
 * request. Other schemas (loose, strict, record) see every member.
 */
function memberReader(schema: AnySchema, readOne: ReadOne, readAll: ReadAll): ReadAll {
  if (schema.type !== "object" || !("entries" in schema)) return readAll;
  const keys = Object.keys(schema.entries as Record<string, unknown>);
  return (c) => {
    const members: Record<string, string> = {};
    for (const key of keys) {
      const value = readOne(c, key);
      if (value !== undefined) members[key] = value;
    }
    return members;
  };
}

export const queryReader = (schema: AnySchema): ReadAll =>
  memberReader(
    schema,
    (c, key) => c.req.query(key),
    (c) => c.req.query(),
  );

export const paramReader = (schema: AnySchema): ReadAll =>
  memberReader(
    schema,
    (c, key) => c.req.param(key),
    (c) => c.req.param(),
  );

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export interface RegisterOptions {
  maxBodyBytes: number;
}

/** Registers the route on `app`: JSON body (415/413/400) when it has one, validation, errors. */
export function registerRoute(app: Hono, route: RouteSpec, options: RegisterOptions): void {
  const handlers: MiddlewareHandler[] = [];
  if (route.body !== undefined) {
    const bodyOptions = { maxBytes: options.maxBodyBytes, formatError: formatRestError };
    handlers.push(
      jsonBody(
        route.emptyBody === undefined
          ? bodyOptions
          : { ...bodyOptions, whenEmpty: route.emptyBody.whenEmpty },
      ) as MiddlewareHandler,
    );
  }
  // Chosen once here, so a request pays only for the members its route declares.
  const { params, query, body } = route;
  const readParams = params === undefined ? undefined : paramReader(params);
  const readQuery = query === undefined ? undefined : queryReader(query);
  handlers.push(async function handleRoute(c: Context) {
    try {
      const input = {
        params: readParams === undefined ? undefined : validate(params!, readParams(c), "params"),
        query: readQuery === undefined ? undefined : validate(query!, readQuery(c), "querystring"),
        body: body === undefined ? undefined : validate(body, c.get("jsonBody" as never), "body"),
      };
      return await route.handler(input as RouteInput<AnySchema, AnySchema, AnySchema>, c);
    } catch (error) {
      const problem = problemOf(error);
      if (problem === undefined) throw error;
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) setResponseHeader(c, "Retry-After", String(retryAfter));
      return formatRestError(c, problem);
    }
  });
  app.on([route.method], [honoPath(route.path)], ...handlers);
}
