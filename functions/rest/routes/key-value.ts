/**
 * Key-value routes, one endpoint key for all seven.
 * ttl in ms (0 or absent = none); missing namespace or key → 404, except keyexists which answers
 * `{keyExists: false, keyValue: {}}`; DELETEs answer 204 with no body. A write past the store's
 * namespace or byte limits, or into a store already over them, is 507 with the reason
 * (core/kv/key-value-limits.ts); deletes always go, so that a full store can be emptied.
 */
import * as v from "valibot";
import type { KeyValueStore } from "../../../core/ports.ts";
import { emptyResponse, jsonResponse } from "../respond.ts";
import { ResourceNotFoundError } from "../rest-errors.ts";
import { defineRoute, type RouteSpec } from "../route.ts";

/** DynamoDB key attributes hold at most 1024 bytes; one limit for every adapter. */
export const MAX_NAME_BYTES = 1000;
/** DynamoDB items hold at most 400 KB; one limit for every adapter. */
export const MAX_VALUE_BYTES = 256 * 1024;

const encoder = new TextEncoder();
/** UTF-8 length ≤ max; a string of ≤ max/3 UTF-16 units always fits, so most need no encoding. */
const utf8Fits = (text: string, max: number) => text.length * 3 <= max || encoder.encode(text).length <= max;
const byteLimited = (max: number, what: string) =>
  v.check<string, string>((text) => utf8Fits(text, max), `${what} is longer than ${max} bytes`);
/** Lone UTF-16 surrogates cannot be stored as UTF-8 (DynamoDB refuses them): 400, not 500. */
const wellFormed = (what: string) =>
  v.check<string, string>((text) => !/\p{Cs}/u.test(text), `${what} is not valid Unicode (lone surrogate)`);
const Name = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1, `${what} must not be empty`),
    byteLimited(MAX_NAME_BYTES, what),
    wellFormed(what),
  );

const NamespaceParams = v.object({ namespace: Name("namespace") });
const KeyParams = v.object({ namespace: Name("namespace"), key: Name("key") });
const KeyQuery = v.object({ key: Name("key") });
const Entry = v.object({ namespace: v.string(), key: v.string(), value: v.string() });
const SetBody = v.object({
  key: Name("key"),
  value: v.pipe(v.string(), byteLimited(MAX_VALUE_BYTES, "value"), wellFormed("value")),
  ttl: v.optional(
    v.pipe(v.number(), v.integer("ttl must be an integer (ms)"), v.minValue(0, "ttl must be ≥ 0")),
  ),
});

const notFound = { description: "Namespace or key not found" };
const namespaceMissing = (namespace: string) =>
  new ResourceNotFoundError(`Namespace not found: ${namespace}`);
const keyMissing = (namespace: string, key: string) =>
  new ResourceNotFoundError(`Key '${key}' not found in namespace: ${namespace}`);

/** Local runtime: the store's file cannot be opened (yet), or the disk refused a write. */
const storeUnavailable = {
  description: "The key-value store's file cannot be used for now (local runtime); see Retry-After",
};

export function keyValueRoutes(kv: KeyValueStore): RouteSpec[] {
  const tag = "Key-value store";
  const endpoint = "keyValueStore";
  return [
    defineRoute({
      method: "GET",
      path: "/v4/keyvaluesnamespaces",
      endpoint,
      tag,
      summary: "All namespaces",
      responses: {
        503: storeUnavailable,
        200: { description: "Namespace names", schema: v.array(v.string()) },
      },
      handler: async (_input, c) => jsonResponse(c, await kv.listNamespaces()),
    }),
    defineRoute({
      method: "GET",
      path: "/v4/keyvalues/{namespace}",
      endpoint,
      tag,
      summary: "The value of a key",
      params: NamespaceParams,
      query: KeyQuery,
      responses: {
        503: storeUnavailable,
        200: { description: "The entry", schema: Entry },
        404: notFound,
      },
      handler: async ({ params, query }, c) => {
        const value = await kv.get(params.namespace, query.key);
        if (value === undefined) {
          if ((await kv.listKeys(params.namespace)) === undefined) throw namespaceMissing(params.namespace);
          throw keyMissing(params.namespace, query.key);
        }
        return jsonResponse(c, { namespace: params.namespace, key: query.key, value });
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v4/keyvalues/{namespace}",
      endpoint,
      tag,
      summary: "Creates or overwrites a key (value and ttl replaced); ttl in ms, 0 or absent = no expiry",
      params: NamespaceParams,
      body: SetBody,
      responses: {
        503: storeUnavailable,
        201: { description: "Stored", schema: v.object({ ...Entry.entries, ttl: v.number() }) },
        400: { description: "Invalid input or key limit of the namespace reached" },
        507: {
          description:
            "Not stored: a new namespace beyond keyValueStore.maxNamespaces, keys and values beyond keyValueStore.maxTotalBytes, or a store already over them (deletes still go); the message says which",
        },
      },
      handler: async ({ params, body }, c) => {
        const ttl = body.ttl ?? 0;
        await kv.set(params.namespace, body.key, body.value, ttl);
        return jsonResponse(c, { namespace: params.namespace, key: body.key, value: body.value, ttl }, 201);
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/v4/keyvalues/{namespace}",
      endpoint,
      tag,
      summary: "Deletes a namespace and all its keys",
      params: NamespaceParams,
      responses: {
        503: storeUnavailable,
        204: { description: "Deleted" },
        404: notFound,
      },
      handler: async ({ params }, c) => {
        if (!(await kv.deleteNamespace(params.namespace))) throw namespaceMissing(params.namespace);
        return emptyResponse(c);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v4/keyvalues/{namespace}/keyexists",
      endpoint,
      tag,
      summary: "Whether a key exists (never 404)",
      params: NamespaceParams,
      query: KeyQuery,
      responses: {
        503: storeUnavailable,
        200: {
          description: "keyValue is {} when the key does not exist",
          schema: v.object({ keyExists: v.boolean(), keyValue: v.partial(Entry) }),
        },
      },
      handler: async ({ params, query }, c) => {
        const value = await kv.get(params.namespace, query.key);
        if (value === undefined) return jsonResponse(c, { keyExists: false, keyValue: {} });
        return jsonResponse(c, {
          keyExists: true,
          keyValue: { namespace: params.namespace, key: query.key, value },
        });
      },
    }),
    defineRoute({
      method: "DELETE",
      path: "/v4/keyvalues/{namespace}/{key}",
      endpoint,
      tag,
      summary: "Deletes a key",
      params: KeyParams,
      responses: {
        503: storeUnavailable,
        204: { description: "Deleted" },
        404: notFound,
      },
      handler: async ({ params }, c) => {
        if (!(await kv.deleteKey(params.namespace, params.key))) {
          if ((await kv.listKeys(params.namespace)) === undefined) throw namespaceMissing(params.namespace);
          throw keyMissing(params.namespace, params.key);
        }
        return emptyResponse(c);
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v4/keylist/{namespace}",
      endpoint,
      tag,
      summary: "The live keys of a namespace",
      params: NamespaceParams,
      responses: {
        503: storeUnavailable,
        200: {
          description: "Keys, sorted",
          schema: v.object({ namespace: v.string(), keys: v.array(v.object({ key: v.string() })) }),
        },
        404: notFound,
      },
      handler: async ({ params }, c) => {
        const keys = await kv.listKeys(params.namespace);
        if (keys === undefined) throw namespaceMissing(params.namespace);
        return jsonResponse(c, { namespace: params.namespace, keys: keys.map((key) => ({ key })) });
      },
    }),
  ];
}
