import { describe, expect, it } from "vitest";
import { sanitiseField } from "../../../../core/udp/sanitise-field.ts";

describe("sanitiseField", () => {
  it("returns a clean value within its limit unchanged", () => {
    const value = "WARN host1 ünïcødé 🙂";

    expect(sanitiseField(value, 100)).toBe(value);
  });

  it("removes U+0000–U+001F and U+007F, including the newline a shell appends", () => {
    const value = "a\u0000b\tc\r\nd\u001fe\u007ff\u0080g\n";

    expect(sanitiseField(value, 100)).toBe("abcdef\u0080g");
  });

  it("cuts a value to its maximum length", () => {
    expect(sanitiseField("x".repeat(150), 100)).toBe("x".repeat(100));
  });

  it("counts the maximum length after control characters are removed", () => {
    const value = `\n\n${"y".repeat(10)}\u0001${"z".repeat(10)}`;

    expect(sanitiseField(value, 15)).toBe(`${"y".repeat(10)}${"z".repeat(5)}`);
  });

  it("never splits a surrogate pair when cutting", () => {
    expect(sanitiseField("abc🙂def", 4)).toBe("abc");
    expect(sanitiseField("\u0001abc🙂def", 4)).toBe("abc");
    expect(sanitiseField("abc🙂def", 5)).toBe("abc🙂");
  });

  it("keeps a huge field's cost to its kept part and result to its limit", () => {
    const huge = `${"\u0002a".repeat(100_000)}`;

    expect(sanitiseField(huge, 1000)).toBe("a".repeat(1000));
  });
});
