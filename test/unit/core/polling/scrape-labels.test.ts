import { describe, expect, it } from "vitest";
import { pickLabels, serverLabelNames } from "../../../../core/polling/scrape-labels.ts";

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
