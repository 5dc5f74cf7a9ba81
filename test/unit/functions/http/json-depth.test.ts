/**
 * The depth limit of JSON bodies: a body nesting 64 levels passes, one nesting 65 is refused with
 * the JSON pointer of the container that opened level 65, whatever its strings hold (brackets,
 * quotes, escapes) and however deep it goes on.
 */
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, tooDeepAt } from "../../../../functions/http/json-depth.ts";

/** `levels` arrays, one inside the other, around `inner`. */
const arrays = (levels: number, inner = "") => `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;

describe("the JSON depth limit", () => {
  it("lets a body through that nests exactly 64 levels, and refuses one that nests 65", () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(tooDeepAt(arrays(64))).toBeUndefined();
    expect(tooDeepAt(arrays(65))).toBe("/0".repeat(64));
  });

  it("names the member names and indices on the way to the container past the limit", () => {
    const inner = `{"a":1,"b/c":[true,"x",${arrays(61)}]}`;

    expect(tooDeepAt(`{"payload":${inner}}`)).toBeUndefined();
    expect(tooDeepAt(`{"payload":{"z":[],${inner.slice(1)}}`)).toBeUndefined();
    expect(tooDeepAt(`{"first":[1,{}],"payload":{"z":[],"a~b":[0,${arrays(62)}]}}`)).toBe(
      `/payload/a~0b/1${"/0".repeat(61)}`,
    );
  });

  it("does not count brackets, quotes or escapes inside strings", () => {
    const noisy = JSON.stringify({ s: `[{"\\\\"\\"[[[${"[".repeat(200)}`, t: "\\" });
    const deep = `{${JSON.stringify(`key "with" [brackets]`)}:${arrays(64)}}`;

    expect(tooDeepAt(noisy)).toBeUndefined();
    expect(tooDeepAt(`[${noisy},${arrays(63)}]`)).toBeUndefined();
    expect(tooDeepAt(deep)).toBe(`/key "with" [brackets]${"/0".repeat(63)}`);
  });

  it("names the first container past the limit in a body 100,000 brackets deep", () => {
    const text = `{"objectData":{"objectType":"x","a":${arrays(100_000)}}}`;

    expect(tooDeepAt(text)).toBe(`/objectData/a${"/0".repeat(62)}`);
  });

  it("lets wide and long bodies through", () => {
    const wide = JSON.stringify({
      items: Array.from({ length: 10_000 }, (_, i) => ({ i, s: "x".repeat(i % 50) })),
    });

    expect(tooDeepAt(wide)).toBeUndefined();
    expect(tooDeepAt(JSON.stringify("\\".repeat(100_000)))).toBeUndefined();
  });
});
