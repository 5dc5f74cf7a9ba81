import { describe, expect, it } from "vitest";
import { isClientVersionCompatible, normaliseVersionHeader } from "../../../../core/audit/client-version.ts";

const matrix = [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }];

describe("normaliseVersionHeader", () => {
  it.each([
    [undefined, undefined],
    [null, undefined],
    ["", undefined],
    ["  ", undefined],
    [" 0.3.0 ", "0.3.0"],
    ["0.3.0, 0.2.0", "0.3.0"],
    [",0.3.0", undefined],
  ])("normalises %j to %j", (header, expected) => {
    expect(normaliseVersionHeader(header)).toBe(expected);
  });
});

describe("isClientVersionCompatible", () => {
  it.each(["0.3.0", "0.3.9", "v0.3.1"])("accepts %s for server 15.0.0", (client) => {
    expect(isClientVersionCompatible("15.0.0", client, matrix)).toBe(true);
  });

  it.each(["0.2.9", "0.4.0", "0.3.1-beta.1", "0.3", "=0.3.0", "junk", ""])(
    "rejects %j for server 15.0.0",
    (client) => {
      expect(isClientVersionCompatible("15.0.0", client, matrix)).toBe(false);
    },
  );

  it("rejects every client when no row matches the server version", () => {
    expect(isClientVersionCompatible("16.0.0", "0.3.0", matrix)).toBe(false);
  });

  it("uses the first row whose server range matches", () => {
    const rules = [
      { serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.5.0" },
      { serverRange: ">=15.0.0", clientRange: ">=9.0.0" },
    ];
    expect(isClientVersionCompatible("15.2.0", "0.4.9", rules)).toBe(true);
  });
});

describe("createCompatibilityCheck", () => {
  it("answers like isClientVersionCompatible, also for many distinct versions", async () => {
    const { createCompatibilityCheck } = await import("../../../../core/audit/client-version.ts");
    const check = createCompatibilityCheck("15.0.0", matrix);

    const answers = Array.from({ length: 600 }, (_, i) => check(`0.${i % 5}.${i}`));

    expect(answers).toEqual(Array.from({ length: 600 }, (_, i) => i % 5 === 3));
  });
});
