import { describe, expect, it } from "vitest";
import { topicBase } from "../../../../core/polling/broker-topic-base.ts";

describe("topicBase", () => {
  it("keeps a base topic ending with /", () => {
    expect(topicBase("qliksense/")).toBe("qliksense/");
  });

  it("adds the / a base topic lacks", () => {
    expect(topicBase("qliksense")).toBe("qliksense/");
  });
});
