/**
 * The ingest API refuses an event nested deeper than 64 levels with 400 and the JSON pointer of
 * where it passed them, before it reaches the queue: such an event (`objectData` 100,000 brackets
 * deep fits in the 1 MiB body limit) could never be written by a destination. An event nested
 * 64 levels deep is still taken.
 */
import { describe, expect, it } from "vitest";
import { envelopeOfType } from "../../../helpers/audit-envelopes.ts";
import { createTestIngestApp, readBody } from "../../../helpers/ingest-app.ts";

const V = { "x-audit-client-version": "0.3.0" };

/** A bookmark event whose objectData.a holds `levels` nested arrays. */
function eventNesting(levels: number): string {
  const text = JSON.stringify(envelopeOfType("event.bookmark", { objectData: { objectType: "x", a: "A" } }));
  return text.replace('"a":"A"', `"a":${"[".repeat(levels)}${"]".repeat(levels)}`);
}

describe("the ingest API's depth limit", () => {
  it("answers 400 with the pointer where the limit was passed for objectData 100,000 brackets deep", async () => {
    const t = createTestIngestApp();
    const body = eventNesting(100_000);
    // root, payload, event, objectData: four levels before the arrays; the 61st array opens level 65.
    const pointer = `/payload/event/objectData/a${"/0".repeat(60)}`;

    const response = await t.post(body, V);

    expect(body.length).toBeLessThan(1024 * 1024);
    expect(response.status).toBe(400);
    expect(await readBody(response)).toEqual({
      status: "error",
      receivedAt: expect.any(String),
      outcome: "dropped",
      reason: `JSON nested deeper than 64 levels at ${pointer}`,
      details: { maxDepth: 64, errors: [{ instancePath: pointer, message: "opens level 65" }] },
    });
    expect(t.handled).toEqual([]);
  });

  it("takes an event nested exactly 64 levels deep, and refuses one level more", async () => {
    const t = createTestIngestApp();

    const deepest = await t.post(eventNesting(60), V);
    const tooDeep = await t.post(eventNesting(61), V);

    expect(deepest.status).toBe(202);
    expect(tooDeep.status).toBe(400);
    expect(t.handled).toHaveLength(1);
  });
});
