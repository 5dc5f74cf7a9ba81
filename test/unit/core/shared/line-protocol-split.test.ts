import { describe, expect, it } from "vitest";
import { encodePoints, integerField, stringField } from "../../../../core/shared/line-protocol.ts";
import { notOneLine, splitLines } from "../../../../core/shared/line-protocol-split.ts";

describe("splitLines, as InfluxDB's scanLine", () => {
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

  it("opens a string only where more = than , were seen: a quote in a field key opens none", () => {
    expect(splitLines('m a"b=1 1\nm v=2 2')).toEqual(['m a"b=1 1', "m v=2 2"]);
    expect(splitLines('m a=1,c"d=2 1\nm v=2 2')).toEqual(['m a=1,c"d=2 1', "m v=2 2"]);
  });

  it("opens a string at a quote after the fields too, as InfluxDB does, joining the next line", () => {
    expect(splitLines('m v=1 "1\nm v=2 2')).toEqual(['m v=1 "1\nm v=2 2']);
  });

  it("takes the character after a backslash with it, a line break included", () => {
    expect(splitLines("m,t=a\\\nb v=1 1\nm v=2 2")).toEqual(["m,t=a\\\nb v=1 1", "m v=2 2"]);
  });

  it("reads backslashes in pairs: a doubled one before a space leaves the space a separator", () => {
    // InfluxDB 1.x's tag parser takes this space as escaped, its splitter as the start of the
    // fields, where the quote of the next tag value opens a string: the lines merge.
    expect(splitLines('m,k\\\\ ey=a"b v=1 1\nm v=2 2')).toEqual(['m,k\\\\ ey=a"b v=1 1\nm v=2 2']);
  });

  it("ignores a last line break", () => {
    expect(splitLines("m v=1 1\n")).toEqual(["m v=1 1"]);
  });
});

describe("notOneLine", () => {
  it("passes a line InfluxDB reads as one point", () => {
    expect(notOneLine('m,t=a\\ b s="x\ny",v=1 1')).toBeUndefined();
  });

  it.each([
    ["a line break outside a string", "m v=1 1\nm v=2 2", /line break/],
    ["a string left open", 'm v="x 1', /string field is left open/],
    ["a last backslash", "m v=1 1\\", /ends in a backslash/],
    ["a comment", "#m v=1 1", /comment/],
    ["a comment after blanks", " \t#m v=1 1", /comment/],
    ["a blank line", " \t", /blank/],
  ])("names %s", (_name, line, why) => {
    expect(notOneLine(line)).toMatch(why);
  });
});
