/**
 * Steward's node options (bin/node-flags.mjs) reach node however Steward is started: `npm start`
 * (package.json), the `steward` command run as a program (its first line) and the container
 * (Dockerfile, checked in test/integration/docker/dockerfile.test.ts). Steward logs the V8 heap
 * limit it got at start (`heapLimitMb`), which is what these options set.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_FLAGS } from "../../../bin/node-flags.mjs";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { spawnStewardIn } from "../../helpers/started-steward.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** The heap limit in MiB, rounded, of a node started with `flags`. */
function heapLimitMb(flags: readonly string[]): number {
  const run = spawnSync(
    process.execPath,
    [...flags, "-p", "Math.round(require('node:v8').getHeapStatistics().heap_size_limit / 1048576)"],
    { encoding: "utf8" },
  );
  return Number(run.stdout.trim());
}

describe("Steward's node options", () => {
  it("are the options of `npm start` and of the `steward` command's first line", () => {
    const flags = NODE_FLAGS.join(" ");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toBe(`node ${flags} bin/steward.js start`);
    const [firstLine] = readFileSync(join(ROOT, "bin", "steward.js"), "utf8").split("\n");
    expect(firstLine).toBe(`#!/usr/bin/env -S node ${flags}`);
  });

  it("set the heap limit Steward runs with when the `steward` command is run as a program", async () => {
    const expected = heapLimitMb(NODE_FLAGS);
    // The options change the limit node would have had: the test sees them arrive.
    expect(expected).not.toBe(heapLimitMb([]));
    const dir = scratchDirectory("steward-node-flags-");
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    port: ${await freePort()}
  restServer:
    port: ${await freePort()}
`,
    );
    const proc = spawnStewardIn(dir, { asProgram: true });
    const [, logged] = await proc.waitFor(/starting .*heapLimitMb=(\d+)/, 30_000);
    expect(Number(logged)).toBe(expected);
    await proc.waitFor(/steward ready/, 30_000);
    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);
  }, 60_000);
});
