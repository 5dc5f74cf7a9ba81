import { describe, expect, it } from "vitest";
import { parseUserIdentity } from "../../../../core/audit/user-identity.ts";

describe("parseUserIdentity", () => {
  it.each([
    ["UserDirectory=LAB; UserId=goran", "LAB", "goran"],
    ["  userdirectory=LAB;userid=goran  ", "LAB", "goran"],
    ["LAB; UserId=goran", "LAB", "goran"],
    ["LAB\\goran", "LAB", "goran"],
    ["LAB\\dom\\goran", "LAB", "dom\\goran"],
  ])("parses %j into directory and id", (raw, userDirectory, userId) => {
    const identity = parseUserIdentity(raw);

    expect(identity).toEqual({ user: raw.trim(), userDirectory, userId });
  });

  it("keeps a cloud e-mail as user without directory or id", () => {
    expect(parseUserIdentity("anna@example.com")).toEqual({
      user: "anna@example.com",
      userDirectory: null,
      userId: null,
    });
  });

  it.each([["N/A"], [""], ["   "], [undefined], [42]])("produces nothing for %j", (raw) => {
    expect(parseUserIdentity(raw)).toEqual({ user: null, userDirectory: null, userId: null });
  });

  it("leaves directory and id null when the id segment is missing", () => {
    expect(parseUserIdentity("UserDirectory=LAB; Foo=bar")).toEqual({
      user: "UserDirectory=LAB; Foo=bar",
      userDirectory: null,
      userId: null,
    });
  });
});
