import { describe, expect, it } from "vitest";
import {
  base16ToBase62,
  base62ToBase16,
  InvalidDigitError,
} from "../../../../core/base-conversion/base-conversion.ts";

describe("base conversion", () => {
  it("converts the long base62 example of Butler's API schema to base16 and back", () => {
    // Prepare
    const base62 = "6DMW88LpSok9Z7P7hUK0wv7bF";
    // Act
    const base16 = base62ToBase16(base62);
    // Assess
    expect(base16).toBe("3199af08bfeeaf5d420f27ed9c01e74370077");
    expect(base16ToBase62(base16)).toBe(base62);
  });

  it("drops leading zeros and converts the empty string to 0", () => {
    expect(base16ToBase62("00ff")).toBe("47");
    expect(base16ToBase62("")).toBe("0");
    expect(base62ToBase16("")).toBe("0");
    expect(base62ToBase16("0")).toBe("0");
  });

  it("round-trips values far beyond 64 bits", () => {
    const base16 = `1${"f".repeat(200)}`;
    expect(base62ToBase16(base16ToBase62(base16))).toBe(base16);
  });

  it.each([
    ["ABCDEF", 16],
    ["a-b", 16],
    ["0x1", 16],
  ] as const)("rejects the base16 input %s with InvalidDigitError", (input, base) => {
    expect(() => base16ToBase62(input)).toThrow(InvalidDigitError);
    try {
      base16ToBase62(input);
    } catch (error) {
      expect((error as InvalidDigitError).base).toBe(base);
    }
  });

  it("rejects a base62 input with a character outside the alphabet", () => {
    expect(() => base62ToBase16("abc-")).toThrow("Invalid base62 digit '-'");
  });
});
