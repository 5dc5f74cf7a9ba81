/**
 * `steward start` on a Node.js outside package.json's `engines.node` logs one WARN naming the
 * supported lines, and starts and stops as usual; on a supported Node it logs no such WARN. The
 * test runs Steward on the Node that runs the test, so .ci/run runs this file on both: on the
 * pinned Node 24 with the whole suite (no WARN) and on the machine's own Node, 20 on the CI
 * machine, with the unit tests (one WARN).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SUPPORTED_NODE_RANGE, unsupportedNodeWarning } from "../../../local/cli/node-lines.ts";
import { freePort } from "../../helpers/free-port.ts";
import { logLines } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const node = process.versions.node;
const supported = unsupportedNodeWarning(node) === undefined;

describe("the Node.js line Steward starts on", () => {
  it(`on Node.js ${node} (${supported ? "supported: no WARN" : "not supported: one WARN"}), starts and stops with exit 0`, async () => {
    const dir = scratchDirectory("steward-node-line-");
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    port: ${await freePort()}
  restServer:
    port: ${await freePort()}
`,
    );
    const steward = await startStewardIn(dir);
    steward.child.kill("SIGTERM");
    expect((await steward.exited()).code).toBe(0);

    const warnings = logLines(steward.output(), "warn", /Node\.js/);
    if (supported) {
      expect(warnings).toEqual([]);
    } else {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`Node.js ${node} is not supported`);
      expect(warnings[0]).toContain(
        "install Node.js 24 or 22 (24 is the primary line); Steward starts anyway",
      );
      expect(warnings[0]).toContain(`supported="${SUPPORTED_NODE_RANGE}"`);
    }
  }, 60_000);
});
