import { describe, expect, it } from "vitest";
import { readLine, splitLines } from "../../../../../core/adapters/influx/line-protocol-lines.ts";
import {
  booleanField,
  encodePoints,
  floatField,
  integerField,
  stringField,
} from "../../../../../core/destinations/line-protocol.ts";

describe("splitLines", () => {
  it("keeps a line break inside a string field in its line, as InfluxDB reads it", () => {
    const body = encodePoints([
      {
        measurement: "m",
        tags: { t: "a b" },
        fields: { s: stringField('one\n"two"\\\nthree') },
        timestampMs: 1,
      },
      { measurement: "m", tags: {}, fields: { n: integerField(2) }, timestampMs: 2 },
    ]);

    const lines = splitLines(body);

    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("m n=2i 2000000");
  });

  it("does not take a quote in a name or tag value as the start of a string", () => {
    expect(splitLines('m,t=say"hi v=1 1\nm v=2 2')).toEqual(['m,t=say"hi v=1 1', "m v=2 2"]);
  });
});

describe("readLine", () => {
  it("reads measurement, tags and time unescaped, and each field's type", () => {
    const [line] = splitLines(
      encodePoints([
        {
          measurement: "a b,c",
          tags: { "t k": "v 1,=x" },
          fields: { s: stringField('x "y"'), f: floatField(1.5), n: integerField(3), b: booleanField(true) },
          timestampMs: 1_700_000_000_123,
          subMsNs: 7,
        },
      ]),
    );

    const facts = readLine(line as string);

    expect(facts?.measurement).toBe("a b,c");
    expect(Object.fromEntries(facts?.tags ?? [])).toEqual({ "t k": "v 1,=x" });
    expect(Object.fromEntries(facts?.fieldTypes ?? [])).toEqual({
      s: "string",
      f: "float",
      n: "integer",
      b: "boolean",
    });
    expect(facts?.time).toBe(1_700_000_000_123_000_007n);
  });

  it("reads unsigned fields and a line without time, and gives up on what does not parse", () => {
    expect(readLine("m u=5u")).toMatchObject({ time: undefined });
    expect(Object.fromEntries(readLine("m u=5u")?.fieldTypes ?? [])).toEqual({ u: "unsigned" });
    expect(readLine("m,k=a\\ v=9 1")).toBeUndefined();
    expect(readLine("m v= 1")).toBeUndefined();
  });
});
