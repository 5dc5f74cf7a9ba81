import { describe, expect, it } from "vitest";
import { createLogThrottle } from "../../../../core/udp/log-throttle.ts";

const T0 = Date.UTC(2026, 0, 1);

describe("createLogThrottle", () => {
  it("lets the first event of a key through each interval and counts the ones held back", () => {
    const throttle = createLogThrottle({ intervalMs: 60_000 });

    const answers = [0, 1, 59_999, 60_000, 60_001].map((offset) => throttle.admit("10.0.0.1", T0 + offset));

    expect(answers).toEqual([0, undefined, undefined, 2, undefined]);
  });

  it("throttles each key on its own", () => {
    const throttle = createLogThrottle();
    throttle.admit("a", T0);

    expect(throttle.admit("b", T0 + 1)).toBe(0);
    expect(throttle.admit("a", T0 + 2)).toBeUndefined();
  });

  it("tracks at most maxKeys keys, holding back new keys beyond them until stale ones are pruned", () => {
    const throttle = createLogThrottle({ intervalMs: 1000, maxKeys: 2 });
    throttle.admit("a", T0);
    throttle.admit("b", T0);

    const third = throttle.admit("c", T0 + 1);
    const thirdAfterPrune = throttle.admit("c", T0 + 1000);

    expect(third).toBeUndefined();
    expect(thirdAfterPrune).toBe(0);
  });
});
