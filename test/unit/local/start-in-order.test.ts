import { describe, expect, it } from "vitest";
import { startInOrder } from "../../../local/start-in-order.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";

/** A part that records its start and stop in `events`. */
function part(name: string, events: string[], stop: () => Promise<void> = async () => undefined) {
  return async () => {
    events.push(`start ${name}`);
    return {
      name,
      async stop() {
        events.push(`stop ${name}`);
        await stop();
      },
    };
  };
}

describe("startInOrder", () => {
  it("hands each part what the earlier one returned, and stops them in reverse order", async () => {
    const events: string[] = [];

    const running = await startInOrder(recordingLogger(), async (parts) => {
      const first = await parts.start("first", part("first", events));
      await parts.start("second", part(`second after ${first.name}`, events));
      await parts.add({ name: "third", start: part("third", events) });
    });
    await running.stop();

    expect(running.names).toEqual(["first", "second", "third"]);
    expect(events).toEqual([
      "start first",
      "start second after first",
      "start third",
      "stop third",
      "stop second after first",
      "stop first",
    ]);
  });

  it("stops what already started when a part fails to start, then rejects with its error", async () => {
    const events: string[] = [];
    const refusal = new Error("port in use");

    const started = startInOrder(recordingLogger(), async (parts) => {
      await parts.start("first", part("first", events));
      await parts.start("second", part("second", events));
      await parts.start("third", async () => {
        throw refusal;
      });
      await parts.start("never", part("never", events));
    });

    await expect(started).rejects.toBe(refusal);
    expect(events).toEqual(["start first", "start second", "stop second", "stop first"]);
  });

  it("logs a stop that fails and still stops the parts started before it, once however often called", async () => {
    const events: string[] = [];
    const logger = recordingLogger();
    const running = await startInOrder(logger, async (parts) => {
      await parts.start("first", part("first", events));
      await parts.start(
        "second",
        part("second", events, async () => {
          throw new Error("socket gone");
        }),
      );
    });

    await Promise.all([running.stop(), running.stop()]);

    expect(events).toEqual(["start first", "start second", "stop second", "stop first"]);
    expect(logger.at("error").map((entry) => [entry.message, entry.fields])).toEqual([
      ["stopping second failed", { error: "socket gone" }],
    ]);
  });
});
