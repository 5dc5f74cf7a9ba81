/**
 * A handbook walk keeps its scratch project directory until its own test ends, when the walks
 * run side by side: vitest's global `onTestFinished`, called after an `await`, attaches to the
 * test that started last, which removed the README walk's directory (its node_modules link
 * first) when a shorter walk ended.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Walk } from "../../helpers/handbook-walk.ts";
import { WalkPorts } from "../../helpers/walk-ports.ts";

let shortOneEnded: () => void = () => {};
const shortOneHasEnded = new Promise<void>((resolve) => {
  shortOneEnded = resolve;
});

describe.concurrent("walks side by side", () => {
  it("the longer walk still has its directory after the shorter one ended", async ({ onTestFinished }) => {
    const walk = new Walk({ ports: await WalkPorts.free([8081]), onFinished: onTestFinished });
    await shortOneHasEnded;
    // The shorter test's finishing hooks run right after its body.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(join(walk.dir, "node_modules", "vitest"))).toBe(true);
  });

  it("the shorter walk, started last, ends first", async ({ onTestFinished }) => {
    const walk = new Walk({ ports: await WalkPorts.free([8081]), onFinished: onTestFinished });
    expect(existsSync(walk.dir)).toBe(true);
    onTestFinished(() => shortOneEnded());
  });
});
