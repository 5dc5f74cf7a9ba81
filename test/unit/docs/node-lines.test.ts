/**
 * The handbook names the Node.js lines package.json's `engines.node` declares (read through
 * local/cli/node-lines.ts, as the start-up WARN reads them): the README and the pages on getting
 * started, running on-prem and development say "Node.js 24 or 22", the getting-started page
 * quotes the range and the WARN as Steward writes it, and no page asks for an older Node.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  SUPPORTED_NODE_LINES,
  SUPPORTED_NODE_RANGE,
  SUPPORTED_NODE_TEXT,
  unsupportedNodeWarning,
} from "../../../local/cli/node-lines.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const read = (page: string) => readFileSync(join(ROOT, page), "utf8").replace(/\s+/g, " ");
const pages = () => [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

describe("the handbook's Node.js lines", () => {
  it.each(["README.md", "docs/getting-started.md", "docs/running-on-prem.md", "docs/development.md"])(
    "%s names the supported lines",
    (page) => {
      expect(read(page)).toContain(`${SUPPORTED_NODE_TEXT} (${SUPPORTED_NODE_LINES[0]} is the primary line`);
    },
  );

  it("getting started quotes the engines range and the WARN as Steward writes it", () => {
    const page = read("docs/getting-started.md");
    expect(page).toContain(`\`${SUPPORTED_NODE_RANGE}\``);
    expect(page).toContain(`warn: ${unsupportedNodeWarning("20.20.2")} supported="${SUPPORTED_NODE_RANGE}"`);
  });

  it("no page asks for a Node outside the supported lines", () => {
    const asks = pages().flatMap((page) =>
      [...read(page).matchAll(/Node(?:\.js)? (\d+)(?:\.\d+)* or (?:newer|later)/g)]
        .filter(([, major]) => !SUPPORTED_NODE_LINES.includes(Number(major)))
        .map(([text]) => `${page}: ${text}`),
    );
    expect(asks).toEqual([]);
  });
});
