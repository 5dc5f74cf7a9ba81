import { describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { acceptedEventJson, envelopeJsonOf } from "../../../../core/audit/envelope-json.ts";
import { parseEnvelope } from "../../../../core/audit/envelope-schema.ts";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";

/** The body text as a client sends it, its parsed value and the envelope validation made of it. */
function submitted(body: Record<string, unknown>, text = JSON.stringify(body, null, 1)) {
  const parsed = JSON.parse(text) as unknown;
  const result = parseEnvelope(parsed);
  if (!result.ok) throw new Error("invalid test envelope");
  return { text, parsed, envelope: result.envelope };
}

describe("envelopeJsonOf", () => {
  it("reuses the request text when validation dropped nothing", () => {
    const { text, parsed, envelope } = submitted(
      validEnvelope({ source: { kind: "qlik-sense-extension", name: "audit-qs", version: "0.3.2" } }),
    );

    expect(envelopeJsonOf(parsed, text, envelope)).toBe(text);
  });

  it("encodes again when validation dropped a member, at the top or in source", () => {
    const top = submitted(validEnvelope({ extra: "dropped" }));
    const source = submitted(validEnvelope({ source: { version: "0.3.2", build: 7 } }));

    expect(envelopeJsonOf(top.parsed, top.text, top.envelope)).toBeUndefined();
    expect(envelopeJsonOf(source.parsed, source.text, source.envelope)).toBeUndefined();
  });

  it("encodes again when the text holds a __proto__ member, or when there is no text", () => {
    const base = validEnvelope();
    const text = JSON.stringify(base).replace('"payload":{', '"payload":{"__proto__":{"x":1},');
    const withProto = submitted(base, text);
    const plain = submitted(base);

    expect(envelopeJsonOf(withProto.parsed, withProto.text, withProto.envelope)).toBeUndefined();
    expect(envelopeJsonOf(plain.parsed, undefined, plain.envelope)).toBeUndefined();
  });
});

describe("acceptedEventJson", () => {
  it("gives the same value from the reused text as from encoding the event", () => {
    const { text, envelope } = submitted(validEnvelope({ correlationId: "c-1" }));
    const event: AcceptedEvent = { envelope, receivedAt: "2026-11-24T08:00:00.000Z", clientIp: "::1" };

    const reused = acceptedEventJson(event, text);

    expect(reused).not.toBe(JSON.stringify(event));
    expect(JSON.parse(reused)).toEqual(JSON.parse(JSON.stringify(event)));
    expect(acceptedEventJson(event, undefined)).toBe(JSON.stringify(event));
  });
});

describe("envelopeJsonOf with a __proto__ member spelled with escapes", () => {
  it.each([
    '"__proto\\u005f_"',
    '"\\u005F\\u005fproto__"',
    '"__pr\\u006fto__"',
    '"__\\u0070roto__"',
    '"__p\\u0072oto__"',
    '"__pro\\u0074o__"',
    '"__prot\\u006F__"',
  ])("encodes again when the payload holds %s, so the stored text is the validated envelope", (name) => {
    const base = validEnvelope();
    const text = JSON.stringify(base).replace('"payload":{', `"payload":{${name}:{"x":1},"a":1,`);
    const { parsed, envelope } = submitted(base, text);

    const stored = envelopeJsonOf(parsed, text, envelope);
    const event: AcceptedEvent = { envelope, receivedAt: "2026-11-24T08:00:00.000Z", clientIp: "::1" };

    expect(stored).toBeUndefined();
    expect(JSON.parse(acceptedEventJson(event, stored)).envelope).toEqual(envelope);
  });

  it("still reuses a text whose escapes spell no __proto__ member", () => {
    const { text, parsed, envelope } = submitted(
      validEnvelope({ correlationId: "tab\\there \u0001 __proto__" }),
    );

    expect(text).toContain("\\u0001");
    expect(envelopeJsonOf(parsed, text, envelope)).toBe(text);
  });

  it("reuses the text of a Windows user whose name begins with a u", () => {
    const { text, parsed, envelope } = submitted(validEnvelope({ correlationId: "DOMAIN\\user" }));

    expect(text).toContain("DOMAIN\\\\user");
    expect(envelopeJsonOf(parsed, text, envelope)).toBe(text);
  });
});
