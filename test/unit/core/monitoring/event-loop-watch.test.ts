import { describe, expect, it } from "vitest";
import { startEventLoopWatch } from "../../../../core/monitoring/event-loop-watch.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";

describe("event loop watch", () => {
  it("is responsive while its ticks come on time", async () => {
    const clock = createManualClock();
    const watch = startEventLoopWatch({ clock });
    for (let i = 0; i < 10; i += 1) clock.advance(250);
    expect(watch.problem()).toBeUndefined();
    await watch.stop();
  });

  it("reports a tick more than 1 s late for the next 10 s, then recovers", async () => {
    const clock = createManualClock();
    const watch = startEventLoopWatch({ clock });
    clock.advance(1500); // one tick due at 250 fires at 1500: 1250 ms late
    expect(watch.problem()).toMatch(/event loop blocked for 1250 ms/);
    for (let i = 0; i < 41; i += 1) clock.advance(250);
    expect(watch.problem()).toBeUndefined();
    await watch.stop();
  });

  it("reports a tick that is overdue now (the loop has not come round to it)", () => {
    const frozen = createManualClock();
    const stuck = startEventLoopWatch({ clock: { ...frozen, setTimeout: () => 0 } });
    frozen.set(frozen.now() + 2000);
    expect(stuck.problem()).toMatch(/a timer is 1750 ms late/);
  });
});
