import { describe, expect, it } from "vitest";
import { KERNEL_DROPS_HINT, startKernelDrops } from "../../../../core/udp/kernel-drops.ts";
import type { KernelDropsReading } from "../../../../core/udp/proc-net-udp.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** A kernel counter the test sets, starting at `start`. */
function setup(start: KernelDropsReading = { drops: 5 }) {
  const clock = createManualClock();
  const logger = recordingLogger();
  let reading = start;
  let reads = 0;
  const drops = startKernelDrops(
    { label: "user_events" },
    {
      read: () => {
        reads += 1;
        return reading;
      },
      clock,
      logger,
    },
  );
  return {
    drops,
    clock,
    logger,
    set: (next: KernelDropsReading) => {
      reading = next;
    },
    reads: () => reads,
    warnings: () => logger.at("warn").map((entry) => ({ message: entry.message, fields: entry.fields })),
  };
}

describe("startKernelDrops", () => {
  it("counts what the kernel dropped since the listener started, not before", () => {
    const { drops, set } = setup({ drops: 5 });
    expect(drops.count()).toEqual({ dropped: 0 });
    set({ drops: 12 });
    expect(drops.count()).toEqual({ dropped: 7 });
  });

  it("warns at once when drops first grow, then at most once a minute with the number since the last line", () => {
    // Prepare
    const { drops, clock, set, warnings } = setup({ drops: 0 });

    // Act
    set({ drops: 3 });
    drops.count();
    clock.advance(20_000);
    set({ drops: 10 });
    drops.count();
    clock.advance(39_999);
    const beforeTheMinute = warnings().length;
    clock.advance(1);
    drops.count();

    // Assess
    expect(beforeTheMinute).toBe(1);
    expect(warnings()).toEqual([
      {
        message: "The operating system dropped 3 datagrams for user_events since the last report",
        fields: { droppedSinceStart: 3, hint: KERNEL_DROPS_HINT },
      },
      {
        message: "The operating system dropped 7 datagrams for user_events since the last report",
        fields: { droppedSinceStart: 10, hint: KERNEL_DROPS_HINT },
      },
    ]);
  });

  it("notices growth on its own timer when nobody asks, and stays quiet while nothing grows", () => {
    const { clock, set, warnings, reads } = setup({ drops: 0 });
    for (let i = 0; i < 3; i += 1) clock.advance(10_000);
    expect(warnings()).toEqual([]);
    set({ drops: 4 });
    clock.advance(10_000);
    expect(warnings().map((line) => line.message)).toEqual([
      "The operating system dropped 4 datagrams for user_events since the last report",
    ]);
    expect(reads()).toBe(5); // at start, then every 10 s
  });

  it("reports the last growth on stop, even within the minute, and answers the last count afterwards", async () => {
    const { drops, set, warnings } = setup({ drops: 0 });
    set({ drops: 2 });
    drops.count();
    set({ drops: 9 });
    await drops.stop();
    set({ unavailable: "gone" });
    expect(warnings().map((line) => line.message)).toEqual([
      "The operating system dropped 2 datagrams for user_events since the last report",
      "The operating system dropped 7 datagrams for user_events since the last report",
    ]);
    expect(drops.count()).toEqual({ dropped: 9 });
  });

  it("keeps counting across the kernel's 32-bit wrap", () => {
    const { drops, set } = setup({ drops: 2 ** 32 - 3 });
    set({ drops: 4 });
    expect(drops.count()).toEqual({ dropped: 7 });
  });

  it("answers null with the reason, never 0, when the system has no counter, and says so once", async () => {
    const { drops, clock, logger } = setup({ unavailable: "cannot read /proc/net/udp (ENOENT)" });
    clock.advance(60_000);
    expect(drops.count()).toEqual({ dropped: null, reason: "cannot read /proc/net/udp (ENOENT)" });
    expect(drops.count()).toEqual({ dropped: null, reason: "cannot read /proc/net/udp (ENOENT)" });
    await drops.stop();
    expect(logger.at("info").map((entry) => [entry.message, entry.fields])).toEqual([
      [
        "The operating system does not report the datagrams it drops for user_events",
        { reason: "cannot read /proc/net/udp (ENOENT)" },
      ],
    ]);
  });

  it("tries again after a first reading that failed, and counts from the first that succeeds", () => {
    // Prepare: the socket's row is not in the table yet at start.
    const { drops, clock, set, logger, warnings } = setup({
      unavailable: "no socket on 127.0.0.1 port 9996 in the kernel's UDP table",
    });

    // Act
    set({ drops: 3 });
    clock.advance(10_000);
    set({ drops: 10 });
    const counted = drops.count();

    // Assess
    expect(counted).toEqual({ dropped: 7 });
    expect(logger.at("info").map((entry) => entry.message)).toEqual([
      "The operating system does not report the datagrams it drops for user_events",
      "The operating system reports the datagrams it drops for user_events, counted from now",
    ]);
    expect(warnings().map((line) => line.message)).toEqual([
      "The operating system dropped 7 datagrams for user_events since the last report",
    ]);
  });

  it("answers null with the reason while the counter cannot be read, warns once, and goes on counting after", () => {
    const { drops, set, warnings } = setup({ drops: 0 });
    set({ unavailable: "no socket on 127.0.0.1 port 9997 in the kernel's UDP table" });
    expect(drops.count()).toEqual({
      dropped: null,
      reason: "no socket on 127.0.0.1 port 9997 in the kernel's UDP table",
    });
    drops.count();
    set({ drops: 1 });
    expect(drops.count()).toEqual({ dropped: 1 });
    expect(warnings().map((line) => line.message)).toEqual([
      "The operating system's count of datagrams dropped for user_events cannot be read",
      "The operating system dropped 1 datagrams for user_events since the last report",
    ]);
  });
});
