import { describe, expect, it } from "vitest";
import {
  filterByCustomProperty,
  filterById,
  filterByTag,
  quoteQrsLiteral,
} from "../../../../../core/adapters/platform/qrs-filter.ts";
import { parseQrsFilter } from "../../../../../local/simulated-platform/qrs-filter-parser.ts";

describe("repository filter expressions", () => {
  it("doubles single quotes inside a literal", () => {
    expect(quoteQrsLiteral("My 'tag'")).toBe("'My ''tag'''");
  });

  it("builds the id, tag and custom property filters the repository expects", () => {
    expect(filterById("a1b2c3d4-1111-4aaa-8bbb-000000000001")).toBe(
      "id eq a1b2c3d4-1111-4aaa-8bbb-000000000001",
    );
    expect(filterByTag("nightly")).toBe("tags.name eq 'nightly'");
    expect(filterByCustomProperty("Dept", "Fin")).toBe(
      "(customProperties.definition.name eq 'Dept') and (customProperties.value eq 'Fin')",
    );
  });

  it.each(["'", "''", "a' or name eq 'x", "ends with quote'", "and eq ) ( '"])(
    "keeps the hostile value %j one literal, so it cannot add clauses",
    (value) => {
      expect(parseQrsFilter(filterByTag(value))).toEqual([{ path: "tags.name", value }]);
    },
  );

  it("makes the simulated repository refuse an unescaped quote", () => {
    expect(() => parseQrsFilter("tags.name eq 'It's'")).toThrow(SyntaxError);
  });
});
