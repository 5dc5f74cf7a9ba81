import { describe, expect, it } from "vitest";
import { isValidLabelName, pickLabels, serverLabelNames } from "../../../../core/polling/scrape-labels.ts";

describe("isValidLabelName", () => {
  it.each(["host", "server_group", "_x", "A9", "serverLocation"])("accepts %s", (name) => {
    expect(isValidLabelName(name)).toBe(true);
  });

  it.each(["", "9a", "server-group", "server group", "__reserved", "__", "é", "a.b"])(
    "refuses %j",
    (name) => {
      expect(isValidLabelName(name)).toBe(false);
    },
  );
});

describe("serverLabelNames", () => {
  it("is the three fixed tags, then the defined ones, each once", () => {
    expect(serverLabelNames(["server_group", "host", "env"])).toEqual([
      "host",
      "server_name",
      "server_description",
      "server_group",
      "env",
    ]);
  });
});

describe("pickLabels", () => {
  it("takes exactly the label names, '' for a missing one", () => {
    expect(pickLabels({ host: "h", extra: "x" }, ["host", "env"])).toEqual({ host: "h", env: "" });
  });
});
