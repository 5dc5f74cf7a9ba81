import { describe, expect, it } from "vitest";
import { batchResponses, createEndOfTurn } from "../../../../local/http/batched-responses.ts";

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 50; i++) await null;
}

describe("batchResponses", () => {
  it("holds a ready answer until the end of the event-loop turn, then passes it on unchanged", async () => {
    const answer = new Response("body", { status: 202, headers: { "x-a": "1" } });
    const batched = batchResponses(async (path: string) => (path === "/a" ? answer : new Response(null)));
    const events: string[] = [];

    const released = batched("/a").then((response) => {
      events.push("released");
      return response;
    });
    await flushMicrotasks();
    events.push("microtasks flushed");

    expect(await released).toBe(answer);
    expect(events).toEqual(["microtasks flushed", "released"]);
  });

  it("releases every answer that became ready in one turn at once, and starts over in the next", async () => {
    const endOfTurn = createEndOfTurn();

    const first = endOfTurn();
    const sameTurn = endOfTurn();
    await first;
    const nextTurn = endOfTurn();

    expect(sameTurn).toBe(first);
    expect(nextTurn).not.toBe(first);
    await nextTurn;
  });

  it("passes a failure on at once", async () => {
    const failure = new Error("boom");
    const batched = batchResponses(async () => {
      throw failure;
    });

    await expect(batched()).rejects.toBe(failure);
  });
});
