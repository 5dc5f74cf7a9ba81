/**
 * The configuration reference page is generated from the schema; these tests keep the committed
 * page equal to what the schema renders today, so a new setting or a changed default cannot reach
 * the code without reaching the page.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import {
  CONFIG_REFERENCE_COMMAND,
  CONFIG_REFERENCE_PAGE,
  renderConfigReference,
} from "../../../bin/config-reference.ts";
import { documentationOf, serviceSchema } from "../../../core/config/index.ts";
import { isRequiredWhenActive, listLeaves, schemaDefault } from "../../../core/config/schema-walk.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const PAGE = join(ROOT, CONFIG_REFERENCE_PAGE);
const keyOf = (path: readonly string[]) => path.join(".").replaceAll(".[]", "[]");
const inline = (value: unknown) => stringify(value, { collectionStyle: "flow", lineWidth: 0 }).trimEnd();

/** The first line where two texts differ, for a message a reader can act on. */
function firstDifference(committed: string, rendered: string): string {
  const a = committed.split("\n");
  const b = rendered.split("\n");
  const index = a.findIndex((line, i) => line !== b[i]);
  const at = index === -1 ? a.length : index;
  return `line ${at + 1}:\n  committed: ${a[at] ?? "(end of page)"}\n  from the schema: ${b[at] ?? "(end of page)"}`;
}

describe(CONFIG_REFERENCE_PAGE, () => {
  it("is what the configuration schema renders today", () => {
    // Prepare
    const committed = existsSync(PAGE) ? readFileSync(PAGE, "utf8") : "";

    // Act
    const rendered = renderConfigReference();

    // Assess
    if (committed !== rendered) {
      expect.fail(
        `${CONFIG_REFERENCE_PAGE} does not match the configuration schema; run \`${CONFIG_REFERENCE_COMMAND}\` ` +
          `and commit the page. First difference at ${firstDifference(committed, rendered)}`,
      );
    }
  });

  it("has a row for every setting with its default and meaning", () => {
    // Prepare
    const [settings = ""] = renderConfigReference().split("## The embedded default configuration");
    const rows = new Map(
      settings
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .map((line) => [line.split(" | ")[0]?.slice(2) ?? "", line.split(" | ")] as const),
    );
    const leaves = listLeaves(serviceSchema);

    // Act
    const wrong = leaves.filter((leaf) => {
      const cells = rows.get(`\`${keyOf(leaf.path)}\``);
      if (cells === undefined) return true;
      const fallback = schemaDefault(leaf.schema);
      const expected = isRequiredWhenActive(leaf.schema)
        ? "none: required when its section is on"
        : fallback === undefined
          ? "none: required in each item"
          : `\`${inline(fallback)}\``;
      return (
        cells[2] !== expected || !cells[3]?.startsWith(documentationOf(leaf.path)?.slice(0, 20) ?? "\u0000")
      );
    });

    // Assess
    expect(leaves.length).toBeGreaterThan(300);
    expect(wrong.map((leaf) => keyOf(leaf.path))).toEqual([]);
  });

  it("shows where the embedded default configuration differs from the defaults", () => {
    // Act
    const page = renderConfigReference();

    // Assess
    expect(page).toContain('| `auditEvents.destination.type` | `"parquet,json"` | `parquet` |');
    expect(page).toContain("| `auditEvents.port` | integer 1–65535 | `8181` | Listen port. |");
  });
});
