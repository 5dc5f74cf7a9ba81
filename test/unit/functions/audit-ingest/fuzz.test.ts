/**
 * Hostile input: random bytes, deep nesting, huge strings, `__proto__` keys, wrong types in every
 * member, duplicate headers. Every answer must be a 4xx in the ingestion shape, nothing may leak
 * onto Object.prototype, and a valid event must still be accepted afterwards. Deterministic
 * seed, bounded loops.
 */

import { describe, expect, it } from "vitest";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { createTestIngestApp, readBody } from "../../../helpers/ingest-app.ts";

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WRONG_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  "",
  "x",
  [],
  {},
  [[]],
  { a: {} },
  "0".repeat(5000),
];
const MEMBERS = ["schemaVersion", "eventId", "timestamp", "type", "payload", "correlationId", "source"];
const V = { "x-audit-client-version": "0.3.0" };

function bodiesToTry(): Array<{
  label: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}> {
  const random = prng(20261122);
  const cases: Array<{ label: string; body: string | Uint8Array; headers?: Record<string, string> }> = [];
  for (let i = 0; i < 200; i++) {
    const bytes = new Uint8Array(1 + Math.floor(random() * 512));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
    cases.push({ label: `random bytes #${i}`, body: bytes });
  }
  cases.push({ label: "10,000-deep arrays", body: `${"[".repeat(10_000)}${"]".repeat(10_000)}` });
  cases.push({ label: "10,000-deep objects", body: `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}` });
  cases.push({
    label: "10,000-deep eventId",
    body: JSON.stringify(validEnvelope()).replace(
      /"eventId":"[^"]*"/,
      `"eventId":${"[".repeat(10_000)}${"]".repeat(10_000)}`,
    ),
  });
  cases.push({
    label: "huge eventId",
    body: JSON.stringify(validEnvelope({ eventId: "e".repeat(900_000) })),
  });
  cases.push({
    label: "body over the limit",
    body: JSON.stringify(validEnvelope({ pad: "p".repeat(1_100_000) })),
  });
  cases.push({ label: "huge type", body: JSON.stringify(validEnvelope({ type: "t".repeat(500_000) })) });
  cases.push({
    label: "__proto__ at the top",
    body: `{"__proto__":{"schemaVersion":1,"polluted":true},"constructor":{"prototype":{"polluted":true}}}`,
  });
  cases.push({
    label: "__proto__ in payload and source",
    body: JSON.stringify(validEnvelope({ eventId: "x" })).replace(
      '"payload":{',
      '"source":{"__proto__":{"kind":"evil"}},"payload":{"__proto__":{"polluted":true},',
    ),
  });
  for (const member of MEMBERS) {
    for (const value of WRONG_VALUES) {
      const body = JSON.stringify(validEnvelope({ [member]: value }));
      // Values that are valid for that member are not hostile: skip them.
      const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
      if ((member === "source" || member === "payload") && isObject) continue;
      if (member === "correlationId" && (value === "" || value === "x")) continue;
      if (member === "schemaVersion" && value === 1e308) continue;
      cases.push({ label: `${member} = ${JSON.stringify(value).slice(0, 20)}`, body });
    }
  }
  cases.push({
    label: "invalid UTF-8",
    body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  });
  return cases;
}

describe("ingest fuzzing", () => {
  it("answers every hostile body with a 4xx in the ingestion shape and still accepts a valid event", async () => {
    const t = createTestIngestApp({ settings: { rateLimit: { enable: false, maxPerMinute: 1 } } });
    const failures: string[] = [];

    for (const { label, body } of bodiesToTry()) {
      const response = await t.request("/api/v1/audit-event", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...V },
      });
      const text = await response.text();
      let shaped = false;
      try {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        shaped =
          parsed.status === "error" &&
          parsed.outcome === "dropped" &&
          typeof parsed.reason === "string" &&
          typeof parsed.receivedAt === "string";
      } catch {
        shaped = false;
      }
      if (response.status < 400 || response.status >= 500 || !shaped)
        failures.push(`${label}: ${response.status} ${text.slice(0, 120)}`);
    }

    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(t.handled).toEqual([]);
    expect((await t.post(validEnvelope(), V)).status).toBe(202);
  });

  it("answers duplicate headers with a 4xx or a normal answer, never a crash", async () => {
    const t = createTestIngestApp({ settings: { apiToken: "tok" } });
    const send = (entries: Array<[string, string]>) => {
      const headers = new Headers();
      for (const [name, value] of entries) headers.append(name, value);
      return t.request("/api/v1/audit-event", {
        method: "POST",
        body: JSON.stringify(validEnvelope()),
        headers,
      });
    };

    const twoTypes = await send([
      ["content-type", "application/json"],
      ["content-type", "text/plain"],
      ["authorization", "Bearer tok"],
    ]);
    const twoTokens = await send([
      ["content-type", "application/json"],
      ["authorization", "Bearer tok"],
      ["authorization", "Bearer tok"],
    ]);
    const twoVersions = await send([
      ["content-type", "application/json"],
      ["authorization", "Bearer tok"],
      ["x-audit-client-version", "0.3.0"],
      ["x-audit-client-version", "9.9.9"],
    ]);

    expect(twoTypes.status).toBe(415);
    expect(twoTokens.status).toBe(401);
    expect(twoVersions.status).toBe(202);
    expect(await readBody(twoTypes)).toMatchObject({ status: "error", outcome: "dropped" });
    expect((await t.post(validEnvelope(), { ...V, authorization: "Bearer tok" })).status).toBe(202);
  });
});
