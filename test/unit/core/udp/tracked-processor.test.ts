import { describe, expect, it } from "vitest";
import { trackProcessorFailures } from "../../../../core/udp/tracked-processor.ts";

describe("UDP processing failures are error-tracked", () => {
  it("records a throwing datagram as UDP_USER_EVENT / UDP_LOG_EVENT and rethrows it to the queue", async () => {
    const recorded: string[] = [];
    const errors = { record: (type: string, server: string) => recorded.push(`${type}|${server}`) };
    const failing = async () => {
      throw new Error("boom");
    };
    const user = trackProcessorFailures(failing, "user_events", errors);
    const log = trackProcessorFailures(failing, "log_events", errors);

    await expect(user(new Uint8Array(), 0)).rejects.toThrow("boom");
    await expect(log(new Uint8Array(), 0)).rejects.toThrow("boom");
    expect(recorded).toEqual(["UDP_USER_EVENT|", "UDP_LOG_EVENT|"]);
  });

  it("records nothing for a datagram processed or dropped by policy", async () => {
    const recorded: string[] = [];
    const processor = trackProcessorFailures(async () => "malformed", "log_events", {
      record: (type) => recorded.push(type),
    });
    expect(await processor(new Uint8Array(), 0, "127.0.0.1")).toBe("malformed");
    expect(recorded).toEqual([]);
  });
});
