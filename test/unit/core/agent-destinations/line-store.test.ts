import { describe, expect, it } from "vitest";
import { createLineStore, type StoredLine } from "../../../../core/agent-destinations/line-store.ts";
import {
  booleanField,
  encodePoints,
  floatField,
  integerField,
  LineProtocolError,
  type Point,
  stringField,
} from "../../../../core/shared/line-protocol.ts";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

/** Points that need every kind of escape and every field type, some in several bytes per character. */
const awkward: Point[] = [
  {
    measurement: "log_event",
    tags: { host: "qs-node1", level: "WARN", empty: "", user_full: "LAB\\goran" },
    fields: {
      message: stringField('Engine warning: "reload failed" \\ again\nsecond line'),
      raw_event: stringField(JSON.stringify({ message: 'say "hi"', path: "C:\\temp" })),
      duration: floatField(1234.5),
      whole: floatField(3),
      handle: integerField(-42),
      ok: booleanField(false),
    },
    timestampMs: 1_763_000_000_123,
  },
  {
    measurement: "audit event,x",
    tags: { "app name": "Umsatz, Nord=1 📈", 東京: "Süd" },
    fields: { "s k": stringField("ünïcödé 📈"), "a=b": integerField(1), yes: booleanField(true) },
  },
  { measurement: "m", tags: {}, fields: { v: floatField(0.1) }, timestampMs: 5 },
];

describe("line store", () => {
  it("makes the body encodePoints makes, byte for byte: escapes, field types, unicode, times", () => {
    const store = createLineStore();

    const lines = awkward.map((point) => store.add(point));

    expect(text(store.body(lines))).toBe(encodePoints(awkward));
    expect(Buffer.compare(store.body(lines), Buffer.from(encodePoints(awkward)))).toBe(0);
  });

  it("joins lines from several chunks, and a line longer than a chunk, in the order given", () => {
    const store = createLineStore({ chunkBytes: 64 });
    const points: Point[] = Array.from({ length: 20 }, (_, n) => ({
      measurement: "m",
      tags: { n: String(n) },
      fields: { s: stringField(n === 7 ? "long ".repeat(40) : `v${n}`) },
      timestampMs: n,
    }));

    const lines = points.map((point) => store.add(point));

    expect(text(store.body(lines))).toBe(encodePoints(points));
    expect(text(store.body(lines.slice(5, 9)))).toBe(encodePoints(points.slice(5, 9)));
  });

  it("throws LineProtocolError for a point no InfluxDB accepts, and stores nothing for it", () => {
    const store = createLineStore();
    const before = store.add(awkward[2] as Point);

    expect(() => store.add({ measurement: "m", tags: {}, fields: { x: floatField(Number.NaN) } })).toThrow(
      LineProtocolError,
    );
    const after = store.add(awkward[2] as Point);

    expect(text(store.body([before, after]))).toBe(
      `${encodePoints([awkward[2] as Point])}\n${encodePoints([awkward[2] as Point])}`,
    );
  });

  it("previews the first characters of a line, never a character cut in two", () => {
    const store = createLineStore();
    const line = store.add({ measurement: "📈📈📈", tags: {}, fields: { v: integerField(1) } });

    expect(store.text(line, 4)).toBe("📈📈");
    expect(store.text(line, 200)).toBe("📈📈📈 v=1i");
  });

  it("reuses the bytes of released lines, so a steady flow holds a bounded amount", () => {
    const store = createLineStore({ chunkBytes: 4096, maxFreeChunks: 2 });
    const point: Point = { measurement: "m", tags: {}, fields: { s: stringField("x".repeat(200)) } };

    let held = 0;
    for (let round = 0; round < 200; round += 1) {
      const batch: StoredLine[] = Array.from({ length: 50 }, () => store.add(point));
      expect(text(store.body(batch))).toBe(encodePoints(Array.from({ length: 50 }, () => point)));
      store.release(batch);
      if (round === 0) held = store.heldBytes();
    }

    expect(store.heldBytes()).toBe(held);
    expect(held).toBeLessThan(4 * 4096 + 50 * 220);
  });

  it("keeps unreleased lines intact while released ones around them are reused", () => {
    const store = createLineStore({ chunkBytes: 256, maxFreeChunks: 1 });
    const point = (n: number): Point => ({ measurement: "m", tags: {}, fields: { n: integerField(n) } });
    const kept = store.add(point(1));
    const others = Array.from({ length: 100 }, (_, n) => store.add(point(100 + n)));

    store.release(others);
    const more = Array.from({ length: 100 }, (_, n) => store.add(point(1000 + n)));

    expect(text(store.body([kept]))).toBe("m n=1i");
    expect(text(store.body(more))).toBe(encodePoints(more.map((_, n) => point(1000 + n))));
  });
});
