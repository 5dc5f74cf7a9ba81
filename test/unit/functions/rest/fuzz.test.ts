/**
 * Fuzzes every REST route that takes input: malformed JSON, wrong types, huge values, deep
 * nesting, prototype keys, random bytes. Every answer must be a clear 4xx in the error shape
 * (never 5xx, never a stack trace), nothing may be stored, and the app keeps answering.
 */
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { json } from "../../../helpers/rest-app.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

const t = restTestAppForSuite();

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const bodyRoutes: [string, string][] = [
  ["POST", "/v4/keyvalues/fuzz"],
  ["POST", "/v4/schedules"],
  ["PUT", "/v4/filecopy"],
  ["PUT", "/v4/filemove"],
  ["DELETE", "/v4/filedelete"],
  ["POST", "/v4/createdirqvd"],
  ["POST", "/v4/createdir"],
];

const deep = `${"[".repeat(5000)}"x"${"]".repeat(5000)}`;
const hostileBodies: [string, string][] = [
  ["empty", ""],
  ["truncated", '{"key": "k", "value": '],
  ["trailing comma", '{"a": 1,}'],
  ["single quotes", "{'a': 1}"],
  ["number", "42"],
  ["string", '"text"'],
  ["null", "null"],
  ["array", "[1, 2, 3]"],
  [
    "wrong member types",
    JSON.stringify({ key: 1, value: [], ttl: {}, name: false, fromFile: null, directory: 7, deleteFile: {} }),
  ],
  [
    "huge strings",
    JSON.stringify({ key: "k".repeat(100_000), value: "v".repeat(500_000), directory: "d".repeat(100_000) }),
  ],
  ["deep nesting", `{"key": ${deep}, "value": ${deep}}`],
  ["prototype keys", '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'],
  ["NaN-like numbers", '{"key": "k", "value": "v", "ttl": 1e400}'],
  ["invalid UTF-8 escape", '{"key": "\\ud800", "value": "\\u0000"}'],
];

describe("REST fuzz", () => {
  it.each(bodyRoutes)("%s %s answers 4xx to every hostile body", async (method, path) => {
    for (const [name, body] of hostileBodies) {
      const response = await t.app.request(path, json(method, body));
      expect(response.status, `${name} → ${response.status}`).toBeGreaterThanOrEqual(400);
      expect(response.status, name).toBeLessThan(500);
      const answer = (await response.json()) as { statusCode: number; error: string; message: string };
      expect(answer.statusCode).toBe(response.status);
      expect(answer.message).not.toMatch(/\n\s+at /);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers 4xx to random bytes on every body route and keeps serving", async () => {
    const next = random(20261122);
    for (let round = 0; round < 40; round++) {
      const bytes = new Uint8Array(1 + Math.floor(next() * 2000));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
      const [method, path] = bodyRoutes[round % bodyRoutes.length]!;
      const response = await t.app.request(path, {
        method,
        headers: { "content-type": "application/json" },
        body: bytes,
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect((await t.app.request("/v4/ping")).status).toBe(200);
  });

  it("answers 4xx to hostile path and query values", async () => {
    const urls = [
      "/v4/keyvalues/%00?key=a",
      `/v4/keyvalues/${"n".repeat(2000)}?key=a`,
      `/v4/keyvalues/ns?key=${"k".repeat(2000)}`,
      "/v4/keyvalues/ns?key=",
      "/v4/keyvalues/ns?key=a&key=b&key=c",
      "/v4/keylist/%E0%A4%A",
      "/v4/schedules?id=",
      `/v4/base62tobase16?base62=${"%F0%9F%92%A9".repeat(10)}`,
    ];
    for (const url of urls) {
      const response = await t.app.request(url);
      expect(response.status, url).toBeGreaterThanOrEqual(200);
      expect(response.status, url).toBeLessThan(500);
    }
  });

  it("stored nothing and touched no file outside the approved directories", async () => {
    expect(await t.kv.listNamespaces()).toEqual([]);
    expect(await t.scheduleStore.list()).toEqual([]);
    expect(await readdir(t.path("files", "outside"))).toEqual([]);
  });
});
