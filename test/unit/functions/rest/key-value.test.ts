import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRestTestApp, json, type RestTestApp, removeDir } from "../../../helpers/rest-app.ts";

let t: RestTestApp;
beforeEach(async () => {
  t = await createRestTestApp({ maxKeysPerNamespace: 3 });
});
afterEach(async () => {
  await t.close();
  await removeDir(t.dir);
});

const post = (ns: string, body: unknown) => t.app.request(`/v4/keyvalues/${ns}`, json("POST", body));
const body = async (response: Response) => (await response.json()) as Record<string, unknown>;

describe("key-value endpoints", () => {
  it("POST stores a key and answers 201 with namespace, key, value and ttl", async () => {
    const response = await post("ns1", { key: "k1", value: "v1", ttl: 3000 });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ namespace: "ns1", key: "k1", value: "v1", ttl: 3000 });
    const absent = await post("ns1", { key: "k2", value: "v2" });
    expect(await absent.json()).toEqual({ namespace: "ns1", key: "k2", value: "v2", ttl: 0 });
  });

  it("GET returns the value, and 404 for a missing namespace or key, including an expired key", async () => {
    await post("ns1", { key: "k1", value: "v1", ttl: 1000 });
    const found = await t.app.request("/v4/keyvalues/ns1?key=k1");
    expect(await found.json()).toEqual({ namespace: "ns1", key: "k1", value: "v1" });
    const noNamespace = await t.app.request("/v4/keyvalues/nope?key=k1");
    expect(noNamespace.status).toBe(404);
    expect(await noNamespace.json()).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "Namespace not found: nope",
    });
    const noKey = await t.app.request("/v4/keyvalues/ns1?key=zz");
    expect(await body(noKey)).toMatchObject({
      statusCode: 404,
      message: "Key 'zz' not found in namespace: ns1",
    });
    await t.clock.advance(1000);
    expect((await t.app.request("/v4/keyvalues/ns1?key=k1")).status).toBe(404);
  });

  it("GET without key answers 400", async () => {
    const response = await t.app.request("/v4/keyvalues/ns1");
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ message: "querystring/key: required" });
  });

  it("overwriting resets the value and the ttl", async () => {
    await post("ns", { key: "k", value: "old", ttl: 1000 });
    await t.clock.advance(900);
    await post("ns", { key: "k", value: "new" });
    await t.clock.advance(5000);
    expect(await body(await t.app.request("/v4/keyvalues/ns?key=k"))).toMatchObject({ value: "new" });
  });

  it("lists namespaces and keys ({namespace, keys: [{key}]}), 404 for a missing namespace", async () => {
    await post("b", { key: "k2", value: "v" });
    await post("b", { key: "k1", value: "v" });
    await post("a", { key: "x", value: "v" });
    expect(await (await t.app.request("/v4/keyvaluesnamespaces")).json()).toEqual(["a", "b"]);
    const list = await t.app.request("/v4/keylist/b");
    expect(list.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await list.json()).toEqual({ namespace: "b", keys: [{ key: "k1" }, { key: "k2" }] });
    expect((await t.app.request("/v4/keylist/none")).status).toBe(404);
  });

  it("keyexists answers true with the entry, or false with {} (never 404)", async () => {
    await post("ns", { key: "k", value: "" });
    expect(await (await t.app.request("/v4/keyvalues/ns/keyexists?key=k")).json()).toEqual({
      keyExists: true,
      keyValue: { namespace: "ns", key: "k", value: "" },
    });
    for (const url of ["/v4/keyvalues/ns/keyexists?key=zz", "/v4/keyvalues/none/keyexists?key=k"]) {
      const response = await t.app.request(url);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ keyExists: false, keyValue: {} });
    }
  });

  it("DELETE key and DELETE namespace answer 204 with an empty body, then 404", async () => {
    await post("ns", { key: "k", value: "v" });
    const deleteKey = await t.app.request("/v4/keyvalues/ns/k", { method: "DELETE" });
    expect(deleteKey.status).toBe(204);
    expect(await deleteKey.text()).toBe("");
    expect(await body(await t.app.request("/v4/keyvalues/ns/k", { method: "DELETE" }))).toMatchObject({
      statusCode: 404,
      message: "Key 'k' not found in namespace: ns",
    });
    expect((await t.app.request("/v4/keyvalues/none/k", { method: "DELETE" })).status).toBe(404);
    const deleteNamespace = await t.app.request("/v4/keyvalues/ns", { method: "DELETE" });
    expect(deleteNamespace.status).toBe(204);
    expect(await deleteNamespace.text()).toBe("");
    expect((await t.app.request("/v4/keyvalues/ns", { method: "DELETE" })).status).toBe(404);
  });

  it("enforces maxKeysPerNamespace with 400 and stores nothing more", async () => {
    for (const key of ["a", "b", "c"]) await post("ns", { key, value: "v" });
    const refused = await post("ns", { key: "d", value: "v" });
    expect(refused.status).toBe(400);
    expect(await body(refused)).toMatchObject({
      message: "Namespace 'ns' already holds the maximum of 3 keys",
    });
    expect(await t.kv.listKeys("ns")).toEqual(["a", "b", "c"]);
  });

  it.each([
    [{ key: "k", value: 123 }, "body/value: Invalid type: Expected string but received 123"],
    [{ key: "k", value: { a: 1 } }, "body/value: Invalid type: Expected string but received Object"],
    [{ key: "", value: "v" }, "body/key: key must not be empty"],
    [{ value: "v" }, "body/key: required"],
    [{ key: "k", value: "v", ttl: "3000" }, 'body/ttl: Invalid type: Expected number but received "3000"'],
    [{ key: "k", value: "v", ttl: -5 }, "body/ttl: ttl must be ≥ 0"],
    [{ key: "k", value: "v", ttl: 1.5 }, "body/ttl: ttl must be an integer (ms)"],
    [[{ key: "k", value: "v" }], "body: Invalid type: Expected Object but received Array"],
    [null, "body: Invalid type: Expected Object but received null"],
    [{ key: "k".repeat(1001), value: "v" }, "body/key: key is longer than 1000 bytes"],
    [{ key: "k", value: "x".repeat(300 * 1024) }, "body/value: value is longer than 262144 bytes"],
  ])("POST %j answers 400 and stores nothing", async (input, message) => {
    const response = await post("ns", input);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, error: "Bad Request", message });
    expect(await t.kv.listNamespaces()).toEqual([]);
  });

  it("accepts URL-encoded namespaces and keys with spaces, slashes and unicode", async () => {
    await post(encodeURIComponent("my ns/ü"), { key: "a b/c", value: "v" });
    expect(await t.kv.get("my ns/ü", "a b/c")).toBe("v");
    const response = await t.app.request(
      `/v4/keyvalues/${encodeURIComponent("my ns/ü")}/${encodeURIComponent("a b/c")}`,
      {
        method: "DELETE",
      },
    );
    expect(response.status).toBe(204);
  });

  it("keeps entries and their expiry across a restart of the app on the same files", async () => {
    await post("ns", { key: "keep", value: "v", ttl: 0 });
    await post("ns", { key: "short", value: "v", ttl: 60_000 });
    const now = t.clock.now();
    await t.close();
    t = await createRestTestApp({ dir: t.dir, maxKeysPerNamespace: 3 });
    await t.clock.advanceTo(now);
    expect(await body(await t.app.request("/v4/keyvalues/ns?key=keep"))).toMatchObject({ value: "v" });
    expect(await body(await t.app.request("/v4/keyvalues/ns?key=short"))).toMatchObject({ value: "v" });
    await t.clock.advance(60_000);
    expect((await t.app.request("/v4/keyvalues/ns?key=short")).status).toBe(404);
  });
});

describe("key-value endpoints: the store's limits", () => {
  let limited: RestTestApp;
  afterEach(async () => {
    await limited.close();
    await removeDir(limited.dir);
  });
  const postTo = (ns: string, value: string) =>
    limited.app.request(`/v4/keyvalues/${ns}`, json("POST", { key: "k", value }));

  it("answers 507 with the reason for a namespace beyond maxNamespaces and for bytes beyond maxTotalBytes; deletes still go", async () => {
    limited = await createRestTestApp({ maxNamespaces: 2, maxTotalBytes: 30 });
    expect((await postTo("a", "0123456789")).status).toBe(201);
    expect((await postTo("b", "0123456789")).status).toBe(201);

    const namespace = await postTo("c", "v");
    const bytes = await postTo("a", "0123456789".repeat(2));

    expect(namespace.status).toBe(507);
    expect(await namespace.json()).toEqual({
      statusCode: 507,
      error: "Insufficient Storage",
      message: "The key-value store already holds keyValueStore.maxNamespaces (2) namespaces",
    });
    expect(bytes.status).toBe(507);
    expect(await bytes.json()).toMatchObject({
      message: expect.stringContaining("over keyValueStore.maxTotalBytes (30)"),
    });
    expect(await limited.kv.get("a", "k")).toBe("0123456789");
    expect((await limited.app.request("/v4/keyvalues/b", { method: "DELETE" })).status).toBe(204);
    expect((await postTo("c", "v")).status).toBe(201);
  });

  it("documents the 507 of a write in the OpenAPI document", async () => {
    limited = await createRestTestApp();
    const document = (await (await limited.app.request("/documentation/json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    expect(document.paths["/v4/keyvalues/{namespace}"]?.post?.responses["507"]?.description).toContain(
      "keyValueStore.maxTotalBytes",
    );
  });
});
