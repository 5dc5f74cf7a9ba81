import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipChunks } from "../../../../local/agent/scrape-gzip.ts";

describe("acceptsGzip", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["deflate, GZIP;q=0.5", true],
    ["x-gzip", true],
    ["*", true],
    ["br;q=1, *;q=0.1", true],
    ["identity", false],
    ["gzip;q=0", false],
    ["gzip;q=0.000, *", false],
    ["*;q=0", false],
    ["br", false],
    ["", false],
  ])("%j → %s", (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });

  it("is false without the header", () => {
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe("gzipChunks", () => {
  it("gzips the chunks one after the other", () => {
    const text = `# HELP steward_x Größe\nsteward_x{server_description="Zürich"} 1\n`.repeat(100);
    const bytes = Buffer.from(text);
    const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 1001), bytes.subarray(1001)];

    const gzipped = gzipChunks(chunks);

    expect(gunzipSync(gzipped).toString("utf8")).toBe(text);
    expect(gzipped.length).toBeLessThan(bytes.length / 10);
  });

  it("gzips no chunks as an empty text", () => {
    expect(gunzipSync(gzipChunks([])).toString("utf8")).toBe("");
  });
});
