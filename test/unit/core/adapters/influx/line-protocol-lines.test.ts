import { describe, expect, it } from "vitest";
import { readLine } from "../../../../../core/adapters/influx/line-protocol-lines.ts";
import {
  booleanField,
  encodePoints,
  floatField,
  integerField,
  stringField,
} from "../../../../../core/shared/line-protocol.ts";
import { splitLines } from "../../../../../core/shared/line-protocol-split.ts";

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
