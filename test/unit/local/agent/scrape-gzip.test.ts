import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, createChunkGzip } from "../../../../local/agent/scrape-gzip.ts";

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

describe("createChunkGzip", () => {
  it("gzips the chunks one after the other", () => {
    const gzipChunks = createChunkGzip();
    const text = `# HELP steward_x Größe\nsteward_x{server_description="Zürich"} 1\n`.repeat(100);
    const bytes = Buffer.from(text);
    const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 1001), bytes.subarray(1001)];

    const gzipped = gzipChunks(chunks);

    expect(gunzipSync(gzipped).toString("utf8")).toBe(text);
    expect(gzipped.length).toBeLessThan(bytes.length / 10);
  });

  it("gzips no chunks as an empty text", () => {
    expect(gunzipSync(createChunkGzip()([])).toString("utf8")).toBe("");
  });

  it("gives each call its own chunks' text, shorter or longer than the call before", () => {
    const gzipChunks = createChunkGzip();
    const texts = ["a".repeat(50), "short", "b".repeat(5000), "c".repeat(10), ""];

    const unpacked = texts.map((text) =>
      gunzipSync(gzipChunks([Buffer.from(text.slice(0, 3)), Buffer.from(text.slice(3))])).toString("utf8"),
    );

    expect(unpacked).toEqual(texts);
  });
});
