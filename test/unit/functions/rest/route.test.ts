import { Hono } from "hono";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { paramReader, queryReader } from "../../../../functions/rest/route.ts";
import { json } from "../../../helpers/rest-app.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

/** A one-route app answering what `queryReader(schema)` read from the request. */
function echoQuery(schema: v.GenericSchema): Hono {
  const read = queryReader(schema);
  const app = new Hono();
  app.get("/q", (c) => c.json(read(c)));
  return app;
}

const readQuery = async (app: Hono, search: string) => (await app.request(`/q${search}`)).json();

describe("queryReader", () => {
  const declared = echoQuery(v.object({ key: v.string(), other: v.string() }));

  it("reads only the keys a plain object schema declares", async () => {
    expect(await readQuery(declared, "?key=a&extra=x&other=b")).toEqual({ key: "a", other: "b" });
  });

  it("leaves an absent key out, so validation reports it as required", async () => {
    expect(await readQuery(declared, "?extra=x")).toEqual({});
  });

  it("takes the first value of a repeated key, as query() does", async () => {
    expect(await readQuery(declared, "?key=first&key=second")).toEqual({ key: "first" });
  });

  it("decodes percent-encoded names and values and + as space", async () => {
    expect(await readQuery(declared, "?k%65y=a%20b&other=c+d")).toEqual({ key: "a b", other: "c d" });
  });

  it("hands a loose object schema every parameter", async () => {
    const loose = echoQuery(v.looseObject({ key: v.string() }));
    expect(await readQuery(loose, "?key=a&extra=x")).toEqual({ key: "a", extra: "x" });
  });
});

/** A one-route app answering what `paramReader(schema)` read from the path. */
function echoParams(schema: v.GenericSchema): Hono {
  const read = paramReader(schema);
  const app = new Hono();
  app.get("/p/:first/:second", (c) => c.json(read(c)));
  return app;
}

describe("paramReader", () => {
  it("reads only the declared params of a plain object schema, decoded", async () => {
    const app = echoParams(v.object({ first: v.string() }));
    expect(await (await app.request("/p/a%20b/c")).json()).toEqual({ first: "a b" });
  });

  it("hands a loose object schema every param", async () => {
    const app = echoParams(v.looseObject({ first: v.string() }));
    expect(await (await app.request("/p/a/c")).json()).toEqual({ first: "a", second: "c" });
  });
});

describe("REST routing with static paths beside parameter paths", () => {
  const t = restTestAppForSuite();

  it("serves GET /v4/schedules/status as the status route, not as a schedule id", async () => {
    const response = await t.app.request("/v4/schedules/status");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
  });

  it("serves keyexists beside the key-value GET and reads the first of repeated keys", async () => {
    await t.app.request("/v4/keyvalues/ns", json("POST", { key: "a", value: "1" }));
    const exists = await t.app.request("/v4/keyvalues/ns/keyexists?key=a");
    expect(await exists.json()).toEqual({
      keyExists: true,
      keyValue: { namespace: "ns", key: "a", value: "1" },
    });
    const first = await t.app.request("/v4/keyvalues/ns?key=a&key=b");
    expect(await first.json()).toEqual({ namespace: "ns", key: "a", value: "1" });
    const unknown = await t.app.request("/v4/keyvalues/ns?key=b&key=a");
    expect(unknown.status).toBe(404);
  });
});
